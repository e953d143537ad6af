//! What a player at the table sees before the next action, with every legal action.

use super::{Irregularity, MatchState, PerSide, PlayedCard, Seat, Tally, TrickPlay};
use crate::cards::{Card, Holding, Suit};
use crate::details::Details;
use crate::record::Action;
use serde::Serialize;
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// What a player at the table could see before the next action, and every legal next action.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TableView {
    /// The phase of the hand, in the game's words (`auction`, `play`, `spoil`, ...; `over` at the end).
    pub phase: &'static str,
    /// Seats that may act now (several while gallery discards are made in any order).
    pub to_act: Vec<Seat>,
    pub trick_number: Option<u8>,
    /// The cards of the trick in progress (empty in a game whose unit is a turn).
    pub trick: Vec<PlayedCard>,
    /// The action that led the trick in progress, where a card has been led: the replay driver
    /// places the events of an unfinished trick by it (README C13). Not on the wire.
    #[serde(skip)]
    pub trick_led_at: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trump: Option<Suit>,
    /// The game's own state of the hand (Stubs & Spoils' `mode` and `special_suit`).
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub details: Details,
    /// The cards held by the (first) seat to act: its entry in `hands` (kept for compatibility).
    pub hand: Vec<Card>,
    /// The cards every seat holds now, by seat, in the same order as `hand`: cards taken in (a
    /// spoil, a widow, a draw from the stock) included, cards played or discarded left out. While
    /// only part of the deal has been dealt (the first round of Twenty-Nine, the first packet of
    /// Court Piece), only that part.
    #[schema(value_type = BTreeMap<String, Vec<Card>>)]
    pub hands: BTreeMap<Seat, Vec<Card>>,
    /// How many cards each seat holds (the length of its entry in `hands`).
    #[schema(value_type = BTreeMap<String, u32>)]
    pub hand_sizes: BTreeMap<Seat, u32>,
    #[schema(inline)]
    pub tally: PerSide<Tally>,
    /// Irregularities established so far.
    pub irregularities: Vec<Irregularity>,
    pub match_state: MatchState,
    /// Every legal next action, computed by the adjudicator's own legality checks.
    pub legal: Vec<Action>,
}

impl TableView {
    /// The view of a trick game: the trick in progress and every seat's cards from `play`.
    pub fn new<H: Holding>(
        phase: &'static str,
        to_act: Vec<Seat>,
        play: &TrickPlay<H>,
        match_state: &MatchState,
    ) -> TableView {
        let mut view = TableView::turns(
            phase,
            to_act,
            play.table.seats().map(|s| (s, play.hand(s).to_vec())),
            match_state,
        );
        view.trick_number = Some(play.trick.number);
        view.trick = play.trick.plays().to_vec();
        view.trick_led_at = (!play.trick.is_empty()).then(|| play.trick.action_index(0));
        view
    }

    /// The view of a game whose unit is a turn, not a trick (a climbing game): what every seat holds.
    pub fn turns(
        phase: &'static str,
        to_act: Vec<Seat>,
        hands: impl IntoIterator<Item = (Seat, Vec<Card>)>,
        match_state: &MatchState,
    ) -> TableView {
        let mut view = TableView {
            phase,
            to_act,
            trick_number: None,
            trick: Vec::new(),
            trick_led_at: None,
            trump: None,
            details: Details::new(),
            hand: Vec::new(),
            hands: BTreeMap::new(),
            hand_sizes: BTreeMap::new(),
            tally: PerSide::default(),
            irregularities: Vec::new(),
            match_state: match_state.clone(),
            legal: Vec::new(),
        };
        view.set_hands(hands);
        view
    }

    /// Sets what every seat holds, and `hand` and `hand_sizes` with it. `new` takes the hands of
    /// the `TrickPlay`; a game whose seats hold less than that so far (part of the deal, cards
    /// not yet drawn) states them here.
    pub fn set_hands(&mut self, hands: impl IntoIterator<Item = (Seat, Vec<Card>)>) {
        self.hands = hands.into_iter().collect();
        self.hand_sizes = self
            .hands
            .iter()
            .map(|(&s, cards)| (s, cards.len() as u32))
            .collect();
        self.hand = self
            .to_act
            .first()
            .and_then(|s| self.hands.get(s))
            .cloned()
            .unwrap_or_default();
    }
}
