//! What a player at the table sees before the next action, with every legal action.

use super::{Irregularity, MatchState, PerSide, PlayedCard, Seat, Tally, Trick, TrickPlay};
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
        let locus = Locus::of_play(play, false);
        view.trick_number = locus.trick_number;
        view.trick = play.trick.plays().to_vec();
        view.trick_led_at = locus.trick_led_at;
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

/// Where a hand stands, as the replay driver needs it to complete a ruling (`replay::locate`): the
/// parts of the `TableView` that place a record error, the events and an unfinished trick, without
/// the hands and the copies a whole view makes.
#[derive(Clone, Copy, Debug)]
pub struct Locus {
    /// The view's `trick_number`.
    pub trick_number: Option<u8>,
    /// The view's `trick`: the cards of the trick in progress.
    pub trick: Trick,
    /// The view's `trick_led_at`.
    pub trick_led_at: Option<usize>,
    /// No seat is to act (the view's `to_act` is empty).
    pub over: bool,
}

impl Locus {
    /// Where the hand stands as its `view` shows it.
    pub fn of(view: &TableView) -> Locus {
        Locus {
            trick_number: view.trick_number,
            trick: Trick::on_table(view.trick_number.unwrap_or(0), &view.trick),
            trick_led_at: view.trick_led_at,
            over: view.to_act.is_empty(),
        }
    }

    /// Where a trick game stands, as `TableView::new` shows `play`: `over` when no seat is to act.
    pub fn of_play<H: Holding>(play: &TrickPlay<H>, over: bool) -> Locus {
        Locus {
            trick_number: Some(play.trick.number),
            trick: play.trick,
            trick_led_at: (!play.trick.is_empty()).then(|| play.trick.action_index(0)),
            over,
        }
    }

    /// Where a trick game stands whose table shows no trick number until play begins: `of_play`,
    /// without the trick number while no trick is under way (an auction, the trump still to
    /// make, a deal thrown in). `playing`: the game's play has begun (its first lead awaited
    /// shows trick 1).
    pub fn of_play_once_begun<H: Holding>(play: &TrickPlay<H>, over: bool, playing: bool) -> Locus {
        let locus = Locus::of_play(play, over);
        if playing || play.started() {
            locus
        } else {
            Locus {
                trick_number: None,
                ..locus
            }
        }
    }

    /// Where a game whose unit is a turn stands, as `TableView::turns` shows it: no trick.
    pub fn of_turns(over: bool) -> Locus {
        Locus {
            trick_number: None,
            trick: Trick::on_table(0, &[]),
            trick_led_at: None,
            over,
        }
    }
}

/// Loci are equal when they say the same: the cards on the table, not the actions that put them
/// there (a view does not show those).
impl PartialEq for Locus {
    fn eq(&self, other: &Locus) -> bool {
        self.trick_number == other.trick_number
            && self.trick.plays() == other.trick.plays()
            && self.trick_led_at == other.trick_led_at
            && self.over == other.over
    }
}
