//! Imperial Tarot (`docs/rules/imperial-tarot.md`): four players each for himself, one declarer
//! against three defenders each hand; the 78-card tarot pack, a second trump suit (the Imperial
//! suit) interleaved with the trumps, the Fool's excuse, an auction of levels and multipliers, the
//! People (a stock of six), Sparrow, Slam and handfuls, and Penalty Play when all pass.

use crate::cards::{Card, CardClass, CardSet, Pack, Rank, Suit, packs};
use crate::details;
use crate::engine::auction::{Auction, Conduct, End, Ladder, NoBid, Rounds};
use crate::engine::{
    Adjudication, Bonus, BonusStatus, CampPoints, Contract, Decides, Ending, Established, Event,
    Fault, FieldError, GameInfo, HandState, Irregularity, Locus, MatchState, NoDetails, OptionKind,
    OptionSpec, Options, PerSide, RecordError, Rules, ScoreSource, Seat, Table, TableView, Trick,
    TrickPlay, TrickReport, deal,
};
use crate::record::{Action, HandRecord, Placeholder, Yes};
use serde::{Deserialize, Serialize};
use std::fmt;
use utoipa::ToSchema;

pub struct ImperialTarot;

const TABLE: Table = Table::solo(4);
const TRICKS: usize = 18;
const HAND: usize = 18;
const PEOPLE: usize = 6;

/// §3: the five levels; level k needs 45 + 10k and is worth 10k (IT-2, IT-3, IT-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TarotLevel {
    Skirmish = 1,
    Battle = 2,
    War = 3,
    /// The fourth level, its name lost (IT-2: "Revolution").
    Level4 = 4,
    Regicide = 5,
}

impl TarotLevel {
    fn k(self) -> i32 {
        self as i32
    }
}

/// §3: With the People ×1 < Without ×2 < Against ×4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TarotMultiplier {
    With,
    Without,
    Against,
}

impl TarotMultiplier {
    fn factor(self) -> i32 {
        match self {
            TarotMultiplier::With => 1,
            TarotMultiplier::Without => 2,
            TarotMultiplier::Against => 4,
        }
    }
}

/// §3, IT-9: a handful of trumps shown with the bid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TarotHandful {
    #[default]
    None,
    Unit,
    Regiment,
    Army,
}

impl TarotHandful {
    /// Trumps to show and the bonus paid by each other player.
    fn size_and_value(self) -> (usize, i32) {
        match self {
            TarotHandful::None => (0, 0),
            TarotHandful::Unit => (10, 20),
            TarotHandful::Regiment => (13, 30),
            TarotHandful::Army => (15, 40),
        }
    }
}

/// A bid (§2 step 2): the Imperial suit, level, multiplier and declarations.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TarotBid {
    pub imperial_suit: Suit,
    pub level: TarotLevel,
    pub multiplier: TarotMultiplier,
    /// Sparrow announced: the declarer will win the last trick with the Magician.
    #[serde(default)]
    pub sparrow: bool,
    /// Slam announced: the declarer will win every trick.
    #[serde(default)]
    pub slam: bool,
    #[serde(default)]
    pub handful: TarotHandful,
    /// The trumps shown for the handful: exactly 10, 13 or 15 of `T1`..`T21` held.
    #[serde(default)]
    #[schema(max_items = 21)]
    pub shown_trumps: Vec<Card>,
}

impl fmt::Display for TarotBid {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "{:?} {:?} the People ({})",
            self.level, self.multiplier, self.imperial_suit
        )
    }
}

/// §3, IT-g: the bids rank by level, then multiplier; the first is a Skirmish, and each later bid
/// is exactly one level higher, or the same level with a higher multiplier (no jump bids).
#[derive(Clone, Copy, Debug)]
struct Levels;

impl Ladder for Levels {
    type Bid = TarotBid;
    type Rank = (TarotLevel, TarotMultiplier);

    fn rank(&self, bid: &TarotBid) -> Option<Self::Rank> {
        Some((bid.level, bid.multiplier))
    }

    /// Every level and multiplier in each suit (the declarations are the bidder's to add).
    fn bids(&self) -> Vec<TarotBid> {
        let mut bids = Vec::new();
        for level in [
            TarotLevel::Skirmish,
            TarotLevel::Battle,
            TarotLevel::War,
            TarotLevel::Level4,
            TarotLevel::Regicide,
        ] {
            for multiplier in [
                TarotMultiplier::With,
                TarotMultiplier::Without,
                TarotMultiplier::Against,
            ] {
                for imperial_suit in Suit::ALL {
                    bids.push(TarotBid {
                        imperial_suit,
                        level,
                        multiplier,
                        sparrow: false,
                        slam: false,
                        handful: TarotHandful::None,
                        shown_trumps: Vec::new(),
                    });
                }
            }
        }
        bids
    }

    fn follows(&self, _: Seat, bid: &Self::Rank, standing: Option<&Self::Rank>) -> bool {
        match standing {
            None => bid.0 == TarotLevel::Skirmish,
            Some(s) => bid.0.k() == s.0.k() + 1 || (bid.0 == s.0 && bid.1 > s.1),
        }
    }
}

/// §3: a pass is final; the calls go round until all but the high bidder have passed. When all
/// four pass, Eldest chooses (`end_of_auction`).
const AUCTION: Conduct<TarotBid> = Conduct {
    rounds: Rounds::PassesFinal,
    equal: None,
    no_bid: NoBid::Passed,
    rule: "imperial-tarot.md §3, IT-g",
};

crate::auction_calls!(Verb, TarotBid);

/// Eldest's choice when nobody after him bid (§3, IT-7, IT-h).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TarotChoice {
    PlaySkirmish,
    PenaltyPlay,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TarotEldestChoice {
    pub choice: TarotChoice,
    /// With `play_skirmish` after Eldest passed: his Skirmish (suit, multiplier, declarations).
    /// Ignored when his own bid stands.
    #[serde(default)]
    pub bid: Option<TarotBid>,
}

/// How the options of the record shape this hand's rules.
#[derive(Clone, Copy, Debug)]
struct Variants {
    /// IT-1: Honours (Magician, World, Fool) 10, or 5 under `honour_value = 5`.
    honour: i32,
    /// IT-3 `target = margin`.
    margin: bool,
    /// IT-9 `handful_only_if_made`.
    handful_only_if_made: bool,
    /// IT-12 `imperial_discardable`.
    imperial_discardable: bool,
    /// README "Penalties": `revoke_penalty = none` reports the §5 irregularities without effect.
    penalties: bool,
}

impl Variants {
    fn of(options: &Options) -> Variants {
        Variants {
            honour: options.count("honour_value") as i32,
            margin: options.choice("target") == "margin",
            handful_only_if_made: options.flag("handful_only_if_made"),
            imperial_discardable: options.flag("imperial_discardable"),
            penalties: options.choice("revoke_penalty") == "default",
        }
    }

    /// §4.5, IT-1: card points.
    fn points(&self, card: Card) -> i32 {
        match card.class() {
            CardClass::TarotTrump(1 | 21) | CardClass::Fool => self.honour,
            CardClass::Suited(_, Rank::King) => 5,
            CardClass::Suited(_, Rank::Queen) => 4,
            CardClass::Suited(_, Rank::Cavalier) => 3,
            CardClass::Suited(_, Rank::Jack) => 2,
            _ => 1,
        }
    }

    /// §4.5, IT-1: the points of `cards`, counted by kind with masks (the same as `points` card
    /// by card): a seat's count is asked at every trick, and the loop over its cards compiled
    /// unevenly (issue 26).
    fn points_of(&self, cards: CardSet) -> i32 {
        const fn every_suit(rank: Rank) -> CardSet {
            let bit = 1 << rank as u16;
            CardSet::ranks(Suit::Spades, bit)
                .union(CardSet::ranks(Suit::Hearts, bit))
                .union(CardSet::ranks(Suit::Diamonds, bit))
                .union(CardSet::ranks(Suit::Clubs, bit))
        }
        const KINGS: CardSet = every_suit(Rank::King);
        const QUEENS: CardSet = every_suit(Rank::Queen);
        const CAVALIERS: CardSet = every_suit(Rank::Cavalier);
        const JACKS: CardSet = every_suit(Rank::Jack);
        static HONOURS: std::sync::LazyLock<CardSet> = std::sync::LazyLock::new(|| {
            let trump = |n| Card::tarot_trump(n).expect("a tarot trump");
            CardSet::of(&[trump(1), trump(21), Card::FOOL])
        });
        let count = |kind: CardSet| cards.intersect(kind).len() as i32;
        let (honours, kings, queens) = (count(*HONOURS), count(KINGS), count(QUEENS));
        let (cavaliers, jacks) = (count(CAVALIERS), count(JACKS));
        let others = cards.len() as i32 - honours - kings - queens - cavaliers - jacks;
        honours * self.honour + 5 * kings + 4 * queens + 3 * cavaliers + 2 * jacks + others
    }

    /// Card points plus one per trick in a whole hand (163 by default).
    fn hand_total(&self) -> i32 {
        packs::tarot78()
            .cards
            .iter()
            .map(|c| self.points(c))
            .sum::<i32>()
            + TRICKS as i32
    }

    /// The points the declarer needs for `level` (IT-3): 45 + 10k, or with a margin of 45 + 10k
    /// over the defenders, half of the hand's total plus that margin, rounded up.
    fn target(&self, level: TarotLevel) -> i32 {
        let n = 45 + 10 * level.k();
        if self.margin {
            (self.hand_total() + n + 1) / 2
        } else {
            n
        }
    }
}

/// What a card is in play (§4.1, §4.2): a trump, an Imperial card, a plain suit, or the Fool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Trump,
    Imperial,
    Plain(Suit),
    Fool,
}

fn kind(card: Card, imperial: Option<Suit>) -> Kind {
    match card.class() {
        CardClass::TarotTrump(_) => Kind::Trump,
        CardClass::Fool => Kind::Fool,
        CardClass::Suited(s, _) if Some(s) == imperial => Kind::Imperial,
        _ => Kind::Plain(card.suit_unchecked()),
    }
}

/// §1: K Q C J T 9 … 2 A, as 14 down to 1.
fn rank_value(rank: Rank) -> u16 {
    match rank {
        Rank::King => 14,
        Rank::Queen => 13,
        Rank::Cavalier => 12,
        Rank::Jack => 11,
        Rank::Ace => 1,
        r => r as u16,
    }
}

/// §4.1: trump `Tn` = 2n + 1, Imperial rank r = 2r (A = 1 … Q = 13), the Imperial King 42.
fn power(card: Card, imperial: Option<Suit>) -> Option<u16> {
    match (card.class(), kind(card, imperial)) {
        (CardClass::TarotTrump(n), _) => Some(2 * n as u16 + 1),
        (CardClass::Suited(_, Rank::King), Kind::Imperial) => Some(42),
        (CardClass::Suited(_, r), Kind::Imperial) => Some(2 * rank_value(r)),
        _ => None,
    }
}

/// §4.2: the led suit is that of the first card that is not the Fool.
fn led(trick: &Trick, imperial: Option<Suit>) -> Option<Kind> {
    trick
        .plays()
        .iter()
        .map(|p| kind(p.card, imperial))
        .find(|k| *k != Kind::Fool)
}

/// §4.2, IT-10: follow the led suit; void, play a trump-like card (on a trump lead an Imperial
/// card, on an Imperial lead a trump); the Fool is always allowed. `None` = legal.
fn judge(imperial: Option<Suit>, trick: &Trick, hand: CardSet, card: Card) -> Option<Fault> {
    let led = led(trick, imperial)?;
    let played = kind(card, imperial);
    if played == Kind::Fool || played == led {
        return None;
    }
    let seat = trick.next_seat(TABLE);
    let of = |k: Kind| -> CardSet { hand.iter().filter(|&c| kind(c, imperial) == k).collect() };
    let following = of(led);
    if !following.is_empty() {
        return Some(Fault::new(
            "revoke",
            "imperial-tarot.md §4.2",
            format!(
                "{seat} played {card} to a {} lead while holding {following}",
                name(led)
            ),
        ));
    }
    let trumping = match led {
        Kind::Trump => of(Kind::Imperial),
        Kind::Imperial => of(Kind::Trump),
        _ => hand
            .iter()
            .filter(|&c| matches!(kind(c, imperial), Kind::Trump | Kind::Imperial))
            .collect(),
    };
    if trumping.is_empty() || trumping.contains(card) {
        return None;
    }
    Some(Fault::new(
        "failed_to_trump",
        "imperial-tarot.md §4.2",
        format!(
            "{seat}, void in the {} led, played {card} while holding the trump-like {trumping}",
            name(led)
        ),
    ))
}

fn name(kind: Kind) -> String {
    match kind {
        Kind::Trump => "trumps".into(),
        Kind::Imperial => "Imperial suit".into(),
        Kind::Plain(s) => format!("suit {s}"),
        Kind::Fool => "Fool".into(),
    }
}

/// §4.3, IT-11: the Magician when the Imperial King is in the trick too; else the highest
/// trump-like card; else the highest card of the led suit. The Fool never wins.
fn winner(trick: &Trick, imperial: Option<Suit>) -> usize {
    let plays = trick.plays();
    let has = |c: Card| plays.iter().position(|p| p.card == c);
    if let Some(suit) = imperial
        && let (Some(magician), Some(_)) = (
            has(Card::tarot_trump(1).expect("T1")),
            has(Card::new(Rank::King, suit)),
        )
    {
        return magician;
    }
    if let Some(pos) = trick.winner_by(|c| power(c, imperial)) {
        return pos;
    }
    let led = led(trick, imperial);
    trick
        .winner_by(|c| match (kind(c, imperial), c.class()) {
            (k, CardClass::Suited(_, r)) if Some(k) == led => Some(rank_value(r)),
            _ => None,
        })
        .expect("a complete trick has a card of the led suit")
}

/// Where the People's cards (and, With the People, the discards) count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TarotPeopleTo {
    Declarer,
    Defenders,
    /// Penalty Play: the People counts for nobody (§4.6).
    SetAside,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Auction,
    /// Eldest chooses a Skirmish or Penalty Play (§3).
    Choice,
    Discard,
    Play,
    FoolPayment,
    Over,
}

/// The Fool played to a trick: its owner, the trick and its winner (§4.2).
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
pub struct TarotFool {
    pub owner: Seat,
    pub trick: u8,
    pub winner: Seat,
    /// The card the owner gave the winner; `null` when the Fool was surrendered.
    pub payment: Option<Card>,
    /// The owner's side had won no card: the Fool itself went to the winner.
    pub surrendered: bool,
}

/// §2 step 4: what the declarer may discard: plain cards first, then empty trump-like cards
/// (IT-a, IT-j), never a king, an honour or another trump-like card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Discardable {
    Plain,
    EmptyTrump,
    Never,
}

#[derive(Clone)]
struct TarotHand {
    rules: Variants,
    dealer: Seat,
    eldest: Seat,
    /// The 18 cards each seat was dealt (the handful is counted in them, IT-e).
    dealt: [CardSet; 4],
    people: CardSet,
    phase: Phase,
    /// §3: the auction, from Eldest; whether anyone after Eldest bid; Eldest's own bid when it
    /// stood alone and awaits his choice (IT-h).
    auction: Auction<Levels>,
    others_bid: bool,
    standing: Option<(Seat, TarotBid)>,
    contract: Option<(Seat, TarotBid)>,
    imperial: Option<Suit>,
    /// The People (Without, Against, Penalty Play) or the discards (With), and whose they are.
    extra: CardSet,
    extra_to: TarotPeopleTo,
    discards: Vec<Card>,
    /// Discardable plain cards among the declarer's 24 (IT-j's P) and empty trumps discarded.
    plain_discardable: usize,
    empty_discarded: usize,
    play: TrickPlay,
    won: [CardSet; 4],
    tricks_won: [u32; 4],
    fool: Option<TarotFool>,
    /// The irregularities under §5 in the order established: index in `adj.irregularities` and
    /// offender. The first decides (README C7, IT-d).
    offences: Vec<(usize, Seat)>,
    hands_per_game: u32,
    adj: Adjudication,
}

impl TarotHand {
    fn penalty_play(&self) -> bool {
        self.contract.is_none()
    }

    fn declarer(&self) -> Option<Seat> {
        self.contract.as_ref().map(|(s, _)| *s)
    }

    /// The seat whose action is due, if any.
    fn due(&self) -> Option<Seat> {
        match self.phase {
            Phase::Auction => self.auction.due(),
            Phase::Choice => Some(self.eldest),
            Phase::Discard => self.declarer(),
            Phase::Play => self.play.to_play(),
            Phase::FoolPayment => self.fool.map(|f| f.owner),
            Phase::Over => None,
        }
    }

    fn what_is_due(&self) -> String {
        let seat = self.due().map_or(String::new(), |s| s.to_string());
        match self.phase {
            Phase::Auction => format!("{seat} is to bid or pass"),
            Phase::Choice => {
                format!("{seat} (Eldest) is to choose a Skirmish or Penalty Play")
            }
            Phase::Discard => format!(
                "{seat} is to discard ({} of 6 discarded)",
                self.discards.len()
            ),
            Phase::Play => format!("{seat} is to play to trick {}", self.play.trick.number),
            Phase::FoolPayment => format!("{seat} is to pay for the Fool with a card"),
            Phase::Over => "the hand is over".into(),
        }
    }

    // ---- the auction (§3) ----

    /// The handful shown with a bid: exactly the size's distinct trumps, held (IT-g).
    fn check_handful(&self, seat: Seat, bid: &TarotBid) -> Result<(), String> {
        let (size, _) = bid.handful.size_and_value();
        let shown: CardSet = bid.shown_trumps.iter().copied().collect();
        let trumps = shown
            .iter()
            .all(|c| matches!(c.class(), CardClass::TarotTrump(_)));
        let held = shown.minus(self.dealt[seat.pos()]).is_empty();
        if shown.len() as usize == bid.shown_trumps.len()
            && bid.shown_trumps.len() == size
            && trumps
            && held
        {
            Ok(())
        } else {
            Err(format!(
                "a {:?} handful is shown with exactly {size} distinct trumps of T1-T21 held by {seat} (§3); shown: {}",
                bid.handful, shown
            ))
        }
    }

    /// §3, IT-7, IT-h: the auction is over. A bid that stood with nobody after Eldest bidding is
    /// Eldest's own: he chooses to play it or Penalty Play, as when all four passed.
    fn end_of_auction(&mut self, end: End<TarotBid>) {
        match end {
            End::Won { declarer, bid } if declarer != self.eldest || self.others_bid => {
                self.set_contract(declarer, bid)
            }
            End::Won { declarer, bid } => {
                self.standing = Some((declarer, bid));
                self.phase = Phase::Choice;
            }
            End::Compelled { .. } | End::Passed => self.phase = Phase::Choice,
        }
    }

    fn set_contract(&mut self, declarer: Seat, bid: TarotBid) {
        let suit = bid.imperial_suit;
        self.imperial = Some(suit);
        self.adj.trump = Some(suit);
        let mut contract = Contract::new(declarer, TABLE.side(declarer));
        contract.target = Some(self.rules.target(bid.level));
        contract.bid = Some(serde_json::to_value(&bid).expect("a bid is JSON"));
        self.adj.contract = Some(contract);
        self.adj
            .set_camps(TABLE, "declarer", &[declarer], "defenders");
        match bid.multiplier {
            TarotMultiplier::With => {
                self.adj.events.push(Event::new(
                    "people_exposed",
                    None,
                    declarer,
                    self.people.iter().collect(),
                    format!(
                        "the People is exposed and joins {declarer}'s hand; he discards six (§4.4)"
                    ),
                ));
                for c in self.people.iter() {
                    self.play.hand_mut(declarer).insert(c);
                }
                let imperial_discardable = self.rules.imperial_discardable;
                self.plain_discardable = self
                    .play
                    .hand(declarer)
                    .iter()
                    .filter(|&c| {
                        discardable(c, Some(suit), imperial_discardable) == Discardable::Plain
                    })
                    .count();
                self.extra_to = TarotPeopleTo::Declarer;
                self.phase = Phase::Discard;
            }
            TarotMultiplier::Without => {
                self.extra = self.people;
                self.extra_to = TarotPeopleTo::Declarer;
                self.phase = Phase::Play;
            }
            TarotMultiplier::Against => {
                self.extra = self.people;
                self.extra_to = TarotPeopleTo::Defenders;
                self.phase = Phase::Play;
            }
        }
        self.contract = Some((declarer, bid));
    }

    fn set_penalty_play(&mut self) {
        self.extra = self.people;
        self.extra_to = TarotPeopleTo::SetAside;
        self.phase = Phase::Play;
    }
}

fn discardable(card: Card, imperial: Option<Suit>, imperial_discardable: bool) -> Discardable {
    match (card.class(), kind(card, imperial)) {
        (CardClass::Fool | CardClass::TarotTrump(1 | 21), _) => Discardable::Never,
        (CardClass::TarotTrump(_), _) => Discardable::EmptyTrump,
        (CardClass::Suited(_, Rank::King), _) => Discardable::Never,
        (CardClass::Suited(..), Kind::Imperial) if imperial_discardable => Discardable::Plain,
        (CardClass::Suited(_, Rank::Jack | Rank::Cavalier | Rank::Queen), Kind::Imperial) => {
            Discardable::Never
        }
        (CardClass::Suited(..), Kind::Imperial) => Discardable::EmptyTrump,
        _ => Discardable::Plain,
    }
}

// ---- actions ----

impl TarotHand {
    fn judge(&self) -> impl Fn(&Trick, CardSet, Card) -> Option<Fault> + use<> {
        let imperial = self.imperial;
        move |trick, hand, card| judge(imperial, trick, hand, card)
    }

    /// README C11, C12: an action that does not fit the phase.
    fn out_of_phase(&self, index: usize, action: &Action<Verb>) -> RecordError {
        RecordError::misfit(index, action, self.due(), &self.what_is_due())
    }

    fn apply_action(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        let due = self.due();
        match (self.phase, &action.kind) {
            (Phase::Play, Verb::Correct(card)) => {
                let judge = self.judge();
                self.play.correct(index, seat, *card, judge)
            }
            (_, _) if due != Some(seat) || matches!(action.kind, Verb::Correct(_)) => {
                Err(self.out_of_phase(index, action))
            }
            (Phase::Auction, Verb::Pass(_) | Verb::Bid(_)) => {
                let end = self.auction.apply(index, action)?;
                if let Verb::Bid(bid) = &action.kind {
                    self.check_bid_handful(index, action, bid)?;
                    self.others_bid |= seat != self.eldest;
                }
                if let Some(end) = end {
                    self.end_of_auction(end);
                }
                Ok(())
            }
            (Phase::Choice, Verb::EldestChoice(choice)) => {
                self.eldest_choice(index, action, choice)
            }
            (Phase::Discard, Verb::Discard(card)) => self.discard(index, action, *card),
            (Phase::Play, Verb::Play(card)) => {
                let judge = self.judge();
                self.play.play_judged(index, seat, *card, judge)?;
                if self.play.is_complete() {
                    self.close_trick();
                }
                Ok(())
            }
            (Phase::FoolPayment, Verb::FoolPayment(card)) => {
                self.fool_payment(index, action, *card)
            }
            _ => Err(self.out_of_phase(index, action)),
        }
    }

    fn check_bid_handful(
        &self,
        index: usize,
        action: &Action<Verb>,
        bid: &TarotBid,
    ) -> Result<(), RecordError> {
        self.check_handful(action.seat, bid)
            .map_err(|d| RecordError::on("invalid_handful", index, action, d))
    }

    fn eldest_choice(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        choice: &TarotEldestChoice,
    ) -> Result<(), RecordError> {
        match (choice.choice, self.standing.clone(), &choice.bid) {
            (TarotChoice::PenaltyPlay, _, _) => self.set_penalty_play(),
            // IT-h: his own bid stands; bid fields given with the choice are ignored.
            (TarotChoice::PlaySkirmish, Some((eldest, bid)), _) => self.set_contract(eldest, bid),
            (TarotChoice::PlaySkirmish, None, None) => {
                return Err(RecordError::on(
"illegal_bid",
                    index,
                    action,
                    "Eldest passed: play_skirmish names his Skirmish in `bid` (suit, multiplier, declarations; IT-h)".into(),
                ));
            }
            (TarotChoice::PlaySkirmish, None, Some(bid)) => {
                if bid.level != TarotLevel::Skirmish {
                    return Err(RecordError::on(
                        "illegal_bid",
                        index,
                        action,
                        format!(
                            "Eldest may only choose to play a Skirmish, not {:?} (§3, IT-g)",
                            bid.level
                        ),
                    ));
                }
                self.check_bid_handful(index, action, bid)?;
                self.set_contract(action.seat, bid.clone());
            }
        }
        Ok(())
    }

    /// §4.4, IT-a, IT-j: one of the declarer's six discards.
    fn discard(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        card: Card,
    ) -> Result<(), RecordError> {
        let seat = action.seat;
        self.play.give_up(index, seat, card, "discard")?;
        self.discards.push(card);
        self.extra.insert(card);
        let class = discardable(card, self.imperial, self.rules.imperial_discardable);
        if class == Discardable::EmptyTrump {
            self.empty_discarded += 1;
        }
        if matches!(kind(card, self.imperial), Kind::Trump | Kind::Imperial) {
            self.adj.events.push(Event::new(
                "trumps_shown",
                index,
                seat,
                vec![card],
                format!("{seat} discards {card} face up: a trump-like discard is shown (§4.4)"),
            ));
        }
        let allowed = PEOPLE.saturating_sub(self.plain_discardable);
        let broken = match class {
            Discardable::Plain => None,
            Discardable::EmptyTrump if self.empty_discarded <= allowed => None,
            Discardable::EmptyTrump => Some(format!(
                "{seat} discarded the empty trump {card} while holding {} discardable plain cards: at most {allowed} empty trumps may be discarded (IT-j)",
                self.plain_discardable
            )),
            Discardable::Never => Some(format!(
                "{seat} discarded {card}: kings, honours and trump-like cards other than empty ones are never discarded (§4.4)"
            )),
        };
        let first = !self
            .adj
            .irregularities
            .iter()
            .any(|i| i.code == "illegal_discard");
        if let (Some(explanation), true) = (broken, first) {
            self.offence(Irregularity {
                code: "illegal_discard",
                action_index: Some(index),
                trick: None,
                seat,
                card: Some(card),
                rule: "imperial-tarot.md §4.4",
                explanation,
                consequence: String::new(),
                effect: Default::default(),
            });
        }
        if self.discards.len() == PEOPLE {
            self.phase = Phase::Play;
        }
        Ok(())
    }

    /// A §5 irregularity is established: the first decides (README C7, IT-d).
    fn offence(&mut self, mut irregularity: Irregularity) {
        let first = self.offences.is_empty();
        let seat = irregularity.seat;
        irregularity.consequence = match (self.rules.penalties, first, self.declarer()) {
            (false, _, _) => "none: revoke_penalty = none, the hand is scored on the cards".into(),
            (true, false, _) => format!(
                "no further effect: the irregularity at action {} already decided the hand (README C7)",
                self.adj.irregularities[self.offences[0].0]
                    .action_index
                    .unwrap_or_default()
            ),
            (true, true, Some(d)) if d == seat => {
                "by the declarer: the contract fails whatever the points (§5 DEFAULT)".into()
            }
            (true, true, Some(_)) => {
                "by a defender: the contract is made whatever the points (§5 DEFAULT)".into()
            }
            (true, true, None) => format!(
                "Penalty Play: {seat} alone pays each other player the larger of his count and 50 (§5 DEFAULT)"
            ),
        };
        if self.rules.penalties {
            self.offences.push((self.adj.irregularities.len(), seat));
        }
        self.adj.irregularities.push(irregularity);
    }

    fn close_trick(&mut self) {
        let pos = winner(&self.play.trick, self.imperial);
        let winner = self.play.trick.plays()[pos].seat;
        let (trick, established) = self.play.close_trick(winner);
        for e in established {
            self.offence(Established::irregularity(e, String::new()));
        }
        let mut points = 0;
        for p in trick.plays() {
            if p.card == Card::FOOL {
                // §4.2: the Fool goes back to its owner's pile.
                self.won[p.seat.pos()].insert(Card::FOOL);
                self.fool = Some(TarotFool {
                    owner: p.seat,
                    trick: trick.number,
                    winner,
                    payment: None,
                    surrendered: false,
                });
                self.adj.events.push(
                    Event::new(
                        "fool_excused",
                        None,
                        p.seat,
                        vec![Card::FOOL],
                        format!(
                            "the Fool returns to {}'s pile; {winner} won the trick (§4.2)",
                            p.seat
                        ),
                    )
                    .in_trick(trick.number),
                );
            } else {
                self.won[winner.pos()].insert(p.card);
                points += self.rules.points(p.card);
            }
        }
        self.tricks_won[winner.pos()] += 1;
        self.count_tally();
        let mut report = TrickReport::new(trick, winner);
        report.points = Some(points);
        self.adj.tricks.push(report);
        if self.adj.tricks.len() == TRICKS {
            self.play.stop();
            self.end_of_play();
        }
    }

    /// The cards the Fool's owner may pay with: his side's won cards (Penalty Play: his own), the
    /// People and the discards where they are that side's (IT-13), the Fool itself excluded.
    fn payable(&self, owner: Seat) -> CardSet {
        let mut cards = CardSet::EMPTY;
        let declarer = self.declarer();
        let mine = |s: Seat| match declarer {
            None => s == owner,
            Some(d) => (s == d) == (owner == d),
        };
        for s in TABLE.seats().filter(|&s| mine(s)) {
            cards = cards.iter().chain(self.won[s.pos()].iter()).collect();
        }
        let extra_mine = match (self.extra_to, declarer) {
            (TarotPeopleTo::Declarer, Some(d)) => owner == d,
            (TarotPeopleTo::Defenders, Some(d)) => owner != d,
            _ => false,
        };
        if extra_mine {
            cards = cards.iter().chain(self.extra.iter()).collect();
        }
        cards.minus(CardSet::of(&[Card::FOOL]))
    }

    fn end_of_play(&mut self) {
        self.phase = Phase::Over;
        let Some(mut fool) = self.fool else {
            return;
        };
        if !self.payable(fool.owner).is_empty() {
            self.phase = Phase::FoolPayment;
            return;
        }
        self.won[fool.owner.pos()].remove(Card::FOOL);
        self.won[fool.winner.pos()].insert(Card::FOOL);
        fool.surrendered = true;
        self.fool = Some(fool);
        self.adj.events.push(Event::new(
            "fool_surrendered",
            None,
            fool.owner,
            vec![Card::FOOL],
            format!(
                "{}'s side won no card: the Fool itself goes to {} (§4.2)",
                fool.owner, fool.winner
            ),
        ));
    }

    fn fool_payment(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        card: Card,
    ) -> Result<(), RecordError> {
        let mut fool = self.fool.expect("a payment is due only for a Fool played");
        let payable = self.payable(fool.owner);
        if !payable.contains(card) {
            return Err(RecordError::on(
                "invalid_fool_payment",
                index,
                action,
                format!(
                    "{} pays for the Fool with a card his side won, not {card} (§4.2, IT-13): one of {payable}",
                    fool.owner
                ),
            ));
        }
        match TABLE.seats().find(|s| self.won[s.pos()].contains(card)) {
            Some(s) => self.won[s.pos()].remove(card),
            None => self.extra.remove(card),
        };
        self.won[fool.winner.pos()].insert(card);
        fool.payment = Some(card);
        self.fool = Some(fool);
        self.phase = Phase::Over;
        Ok(())
    }
}

// ---- legal actions ----

impl TarotHand {
    /// Every legal next action but the cards of the play (those come from the play's judge).
    /// Every action worth trying now (`HandState::candidates`): every call of the auction, every
    /// choice of Eldest, every card of the declarer's for a discard, every card for the Fool's
    /// payment, the play's cards. `apply` judges them.
    fn candidates(&self) -> Vec<Action<Verb>> {
        let Some(seat) = self.due() else {
            return Vec::new();
        };
        let kinds: Vec<Verb> = match self.phase {
            Phase::Auction => return self.auction.candidates(),
            Phase::Choice => std::iter::once(None)
                .chain(Levels.bids().into_iter().map(Some))
                .map(|bid| {
                    Verb::EldestChoice(TarotEldestChoice {
                        choice: TarotChoice::PlaySkirmish,
                        bid,
                    })
                })
                .chain([Verb::EldestChoice(TarotEldestChoice {
                    choice: TarotChoice::PenaltyPlay,
                    bid: None,
                })])
                .collect(),
            Phase::Discard => self.play.hand(seat).iter().map(Verb::Discard).collect(),
            Phase::FoolPayment => pack().cards.iter().map(Verb::FoolPayment).collect(),
            Phase::Play => return self.play.candidates(Verb::Play, Verb::Correct),
            Phase::Over => Vec::new(),
        };
        kinds
            .into_iter()
            .map(|kind| Action { seat, kind })
            .collect()
    }

    fn phase_name(&self) -> &'static str {
        match self.phase {
            Phase::Auction => "auction",
            Phase::Choice => "eldest_choice",
            Phase::Discard => "discard",
            Phase::Play => "play",
            Phase::FoolPayment => "fool_payment",
            Phase::Over => "over",
        }
    }
}

// ---- the end of the hand ----

impl TarotHand {
    /// Each seat's count: his won cards, 1 per trick, and the People or discards when his (§4.5).
    fn counts(&self) -> [i32; 4] {
        let mut out = [0; 4];
        for s in TABLE.seats() {
            let p = s.pos();
            out[p] = self.rules.points_of(self.won[p]) + self.tricks_won[p] as i32;
            if self.extra_to == TarotPeopleTo::Declarer && Some(s) == self.declarer() {
                out[p] += self.rules.points_of(self.extra);
            }
        }
        out
    }

    /// The same as a penalty of irregularity `irregularity` (README: its effect states it).
    fn exchange_penalty(&mut self, irregularity: usize, holder: Seat, each: i32) {
        self.adj
            .penalize(irregularity, TABLE.side(holder), 3 * each);
        for s in TABLE.seats().filter(|&s| s != holder) {
            self.adj.penalize(irregularity, TABLE.side(s), -each);
        }
        self.adj.irregularities[irregularity].effect.decides = Some(Decides::Hand);
    }

    /// A bonus paid between `holder` and each other player (§4.5): its net in `bonuses`, each other
    /// player's share a score item of the same code.
    fn bonus(
        &mut self,
        code: &'static str,
        holder: Seat,
        each: i32,
        card: Option<Card>,
        scored: bool,
    ) {
        self.adj.bonus(Bonus {
            code,
            side: TABLE.side(holder),
            card,
            points: 3 * each,
            status: if scored {
                BonusStatus::Scored
            } else {
                BonusStatus::NotScored
            },
        });
        if scored {
            for s in TABLE.seats().filter(|&s| s != holder) {
                self.adj
                    .score(TABLE.side(s), -each, ScoreSource::Bonus, code, None);
            }
        }
    }

    /// §4.5: the Sparrow goes to the winner of trick 18 when he won it with the Magician.
    fn sparrow(&self) -> Option<Seat> {
        let last = self.adj.tricks.last()?;
        let magician = Card::tarot_trump(1).expect("T1");
        let winner = last.winner?;
        last.plays
            .plays()
            .iter()
            .any(|p| p.seat == winner && p.card == magician)
            .then_some(winner)
    }

    /// §4.5, IT-14: the one player who won every trick he did not play the Fool to.
    fn slam(&self) -> Option<Seat> {
        TABLE.seats().find(|&s| {
            self.adj.tricks.iter().all(|t| {
                t.winner == Some(s)
                    || t.plays
                        .plays()
                        .iter()
                        .any(|p| p.seat == s && p.card == Card::FOOL)
            })
        })
    }

    fn score_contract(&mut self, counts: &[i32; 4]) {
        let (declarer, bid) = self.contract.clone().expect("a contract hand");
        let k = bid.level.k();
        // Against the People, the People is the defenders' and in no seat's count.
        let declared = counts[declarer.pos()];
        let target = self.rules.target(bid.level);
        let decided = self.offences.first().copied();
        let made = decided.map_or(declared >= target, |(_, offender)| offender != declarer);
        let stake = 10 * k * bid.multiplier.factor();
        let each = if made { stake } else { -stake };
        match decided {
            Some((irregularity, _)) => self.exchange_penalty(irregularity, declarer, each),
            // §5: each defender pays the declarer (is paid by him when negative).
            None => self.adj.pay_each_from_each(
                TABLE,
                "defenders",
                "declarer",
                each,
                ScoreSource::Contract,
                if made {
                    "contract_made"
                } else {
                    "contract_failed"
                },
            ),
        }
        // Bonuses, scored as achieved (§5 DEFAULT, IT-e, IT-i).
        let magician = Card::tarot_trump(1);
        let sparrow = self.sparrow();
        if bid.sparrow {
            let achieved = sparrow == Some(declarer);
            self.bonus(
                "sparrow",
                declarer,
                if achieved { 10 } else { -10 },
                magician,
                true,
            );
        }
        if let Some(s) = sparrow.filter(|&s| !bid.sparrow || s != declarer) {
            self.bonus("sparrow", s, 5, magician, true);
        }
        let slam = self.slam();
        if bid.slam {
            let achieved = slam == Some(declarer);
            self.bonus(
                "slam",
                declarer,
                if achieved { 200 } else { -200 },
                None,
                true,
            );
        }
        if let Some(s) = slam.filter(|&s| !bid.slam || s != declarer) {
            self.bonus("slam", s, 100, None, true);
        }
        let (_, value) = bid.handful.size_and_value();
        if value > 0 {
            let scored = made || !self.rules.handful_only_if_made;
            self.bonus(
                "handful",
                declarer,
                if made { value } else { -value },
                None,
                scored,
            );
        }
        if let Some(c) = &mut self.adj.contract {
            c.made = Some(made);
        }
        self.adj.hand_winner = made.then(|| TABLE.side(declarer));
    }

    fn score_penalty_play(&mut self, counts: &[i32; 4]) {
        if let Some(&(irregularity, offender)) = self.offences.first() {
            // §5 DEFAULT, IT-d: the offender alone pays.
            let each = counts[offender.pos()].max(50);
            self.exchange_penalty(irregularity, offender, -each);
            return;
        }
        // §4.6, IT-15: every player with the most pays that many to each other player.
        let most = *counts.iter().max().expect("four seats");
        let tops = counts.iter().filter(|&&c| c == most).count() as i32;
        let payers = TABLE.seats().filter(|s| counts[s.pos()] == most);
        let others = TABLE.seats().filter(|s| counts[s.pos()] != most);
        for s in payers.chain(others) {
            let net = if counts[s.pos()] == most {
                -3 * most + most * (tops - 1)
            } else {
                most * tops
            };
            self.adj.score(
                TABLE.side(s),
                net,
                ScoreSource::Tricks,
                "penalty_play",
                None,
            );
        }
    }

    /// The tally as the piles stand: after each trick, and once the Fool is paid for.
    fn count_tally(&mut self) {
        let counts = self.counts();
        for s in TABLE.seats() {
            let tally = &mut self.adj.tally[TABLE.side(s)];
            tally.tricks = self.tricks_won[s.pos()];
            tally.points = Some(counts[s.pos()]);
        }
    }

    fn rule(mut self) -> Adjudication {
        self.count_tally();
        let counts = self.counts();
        let camp_points = self.declarer().map(|d| {
            let people = match self.extra_to {
                TarotPeopleTo::Defenders => self.rules.points_of(self.extra),
                _ => 0,
            };
            CampPoints {
                declarer: counts[d.pos()],
                defenders: TABLE
                    .seats()
                    .filter(|&s| s != d)
                    .map(|s| counts[s.pos()])
                    .sum::<i32>()
                    + people,
            }
        });
        let details = self.details(camp_points);
        self.adj.details = details::Details::of(details);
        if self.penalty_play() {
            self.score_penalty_play(&counts);
        } else {
            self.score_contract(&counts);
        }
        self.adj.settle();
        let m = &mut self.adj.match_after;
        m.next_dealer = Some(TABLE.left(self.dealer));
        if m.hands_played >= self.hands_per_game {
            // §4.7, IT-e: the highest total wins; a tie at the top has no winner.
            m.highest_wins();
        }
        self.adj
    }

    fn finish_hand(mut self, error: Option<RecordError>) -> Adjudication {
        self.adj.corrected_revokes = std::mem::take(&mut self.play.corrected);
        let ending = if self.phase == Phase::Over {
            Ending::Over
        } else {
            Ending::Open {
                due: self.due(),
                detail: format!(
                    "the record stops before the hand is over: {}",
                    self.what_is_due()
                ),
            }
        };
        let details = self.details(None);
        self.adj.details = details::Details::of(details);
        if self.adj.unscored(error, ending) {
            return self.adj;
        }
        self.rule()
    }
}

// ---- the game ----

static OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "honour_value",
        kind: OptionKind::Count {
            min: 5,
            max: 10,
            default: 10,
        },
        description: "Card points of each Honour (Magician, World, Fool): 10 (a pack of 145), or 5 (130).",
        rule: "imperial-tarot.md §6 IT-1",
    },
    OptionSpec {
        name: "target",
        kind: OptionKind::Choice {
            values: &["absolute", "margin"],
            default: "absolute",
        },
        description: "Level k needs 45 + 10k points (`absolute`), or a margin of 45 + 10k over the defenders (`margin`).",
        rule: "imperial-tarot.md §6 IT-3",
    },
    OptionSpec {
        name: "handful_only_if_made",
        kind: OptionKind::Flag { default: false },
        description: "A handful is received when the contract is made and not paid when it fails.",
        rule: "imperial-tarot.md §6 IT-9",
    },
    OptionSpec {
        name: "imperial_discardable",
        kind: OptionKind::Flag { default: false },
        description: "Imperial cards other than the King are plain cards for the discard rule.",
        rule: "imperial-tarot.md §6 IT-12",
    },
    OptionSpec {
        name: "hands_per_game",
        kind: OptionKind::Count {
            min: 4,
            max: 100,
            default: 4,
        },
        description: "Hands in a game: a multiple of four.",
        rule: "imperial-tarot.md §6 IT-16",
    },
    OptionSpec {
        name: "revoke_penalty",
        kind: OptionKind::Choice {
            values: &["default", "none"],
            default: "default",
        },
        description: "`default`: §5's penalties for a revoke, a failure to trump and an illegal discard; `none`: reported only, the hand scored on the cards.",
        rule: "imperial-tarot.md §5",
    },
];

fn pack() -> Pack {
    packs::tarot78()
}

impl ImperialTarot {
    /// Option values the option kinds cannot state (IT-1: 5 or 10; IT-16: a multiple of four).
    fn check_options(options: &Options) -> Result<(), Vec<FieldError>> {
        let mut errors = Vec::new();
        if !matches!(options.count("honour_value"), 5 | 10) {
            errors.push(FieldError::new(
                "/options/honour_value".into(),
                "expected 10 or 5 (IT-1)".into(),
            ));
        }
        if !options.count("hands_per_game").is_multiple_of(4) {
            errors.push(FieldError::new(
                "/options/hands_per_game".into(),
                "a game is a multiple of four hands (§4.7, IT-16): expected 4, 8, 12, ...".into(),
            ));
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    fn start_hand(
        record: &HandRecord<Verb>,
        options: &Options,
        before: &MatchState,
    ) -> Result<TarotHand, Vec<FieldError>> {
        Self::check_options(options)?;
        let pack = pack();
        let mut dealt = deal::check_cards(record, TABLE, &pack)?;
        // `setup` declares the People (`stock`, six cards) and nothing face up.
        deal::check_undealt(&record.stock, "stock", &pack, &mut dealt)?;
        deal::check_whole_pack(&dealt, &pack)?;
        let hands_per_game = options.count("hands_per_game");
        if before.hands_played >= hands_per_game {
            return Err(vec![FieldError::new(
                "/match_state/hands_played".into(),
                format!(
                    "a game is {hands_per_game} hands and {} were played: start a new match",
                    before.hands_played
                ),
            )]);
        }
        let dealer = record.dealer;
        let eldest = TABLE.left(dealer);
        let mut adj = Adjudication::new(INFO.id, dealer, before, TRICKS);
        adj.tally = PerSide::over(TABLE.sides());
        adj.counts_card_points(TABLE.sides());
        let mut hands = [CardSet::EMPTY; 4];
        hands.copy_from_slice(&dealt.hands[..4]);
        Ok(TarotHand {
            rules: Variants::of(options),
            dealer,
            eldest,
            dealt: hands,
            people: record.stock.iter().copied().collect(),
            phase: Phase::Auction,
            auction: Auction::new(TABLE, eldest, Levels, AUCTION),
            others_bid: false,
            standing: None,
            contract: None,
            imperial: None,
            extra: CardSet::EMPTY,
            extra_to: TarotPeopleTo::SetAside,
            discards: Vec::new(),
            plain_discardable: 0,
            empty_discarded: 0,
            // IT-f: Eldest leads the first trick in every hand.
            play: TrickPlay::new(TABLE, dealt.hands, eldest),
            won: [CardSet::EMPTY; 4],
            tricks_won: [0; 4],
            fool: None,
            offences: Vec::new(),
            hands_per_game,
            adj,
        })
    }
}

static INFO: GameInfo = GameInfo {
    id: "imperial-tarot",
    name: "Imperial Tarot",
    tables: crate::engine::Tables(&[TABLE]),
    deck: "78-card tarot (four suits of 14 with the Cavalier, trumps T1-T21, the Fool)",
    game_target: 0,
    options: OPTIONS,
    rules: "docs/rules/imperial-tarot.md",
    irregularities: &["revoke", "failed_to_trump", "illegal_discard"],
    record_errors: &[
        "out_of_turn",
        "unexpected_action",
        "illegal_bid",
        "invalid_handful",
        "card_not_held",
        "card_played_twice",
        "invalid_correct",
        "invalid_fool_payment",
        "action_after_end",
        "incomplete_hand",
    ],
    events: &[
        "people_exposed",
        "trumps_shown",
        "fool_excused",
        "fool_surrendered",
    ],
    score_codes: &[
        "contract_made",
        "contract_failed",
        "penalty_play",
        "sparrow",
        "slam",
        "handful",
    ],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    titles: crate::engine::Titles(&[
        ("failed_to_trump", "Did not trump when able"),
        ("illegal_discard", "Discard the rules do not allow"),
        ("invalid_handful", "Handful that does not qualify"),
        (
            "invalid_fool_payment",
            "Fool paid for with a card that may not pay it",
        ),
        ("people_exposed", "With the People: a partner revealed"),
        ("trumps_shown", "Trump-like card discarded and shown"),
        ("fool_excused", "Fool returned to its owner after its trick"),
        ("fool_surrendered", "Fool surrendered"),
        ("penalty_play", "Penalty Play, called by Eldest"),
        ("sparrow", "Sparrow: the last trick won with the Magician"),
        ("slam", "Slam"),
        ("handful", "Handful shown"),
    ]),
};

// ---- the engine's interface ----

crate::verbs! {
    /// What a record of Imperial Tarot can say.
    pub enum Verb in "Imperial Tarot" {
        Pass(Yes) = "pass": "A pass in the auction (final; value `true`).",
        Bid(TarotBid) = "bid": "A bid: the Imperial suit, a level, a multiplier and any declarations (Sparrow, Slam, a handful shown) (§3).",
        EldestChoice(TarotEldestChoice) = "eldest_choice": "Eldest's choice when nobody after him bid: `play_skirmish` (his own bid, or the Skirmish in `bid`) or `penalty_play` (§3).",
        Discard(Card) = "discard": "One of the declarer's six discards With the People (§4.4).",
        Play(Card) = "play": "A card played to the current trick.",
        Correct(Card) = "correct": "Replaces the seat's card in the current, incomplete trick (a revoke or a failure to trump corrected).",
        FoolPayment(Card) = "fool_payment": "The card from his side's won cards the Fool's owner gives the winner of the Fool's trick (§4.2).",
    }
}

impl Placeholder for TarotBid {
    const PLACEHOLDER: &'static str = "<{\"imperial_suit\": S H D C, \"level\": skirmish battle war level4 regicide, \"multiplier\": with without against}>";
}

impl Placeholder for TarotEldestChoice {
    const PLACEHOLDER: &'static str = "<{\"choice\": play_skirmish or penalty_play}>";
}

/// What Imperial Tarot adds to the adjudication.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TarotDetails {
    /// Eldest called Penalty Play (§4.6): no declarer, everyone for himself.
    pub penalty_play: bool,
    /// The highest bid of an auction that has not ended in a contract (a record stopping in the
    /// auction); `null` once a contract stands, whose bid is `contract.bid` (one bid, told once).
    pub standing_bid: Option<TarotBid>,
    /// The People, the six undealt cards.
    pub people: Vec<Card>,
    /// Whose pile the People (With the People: the discards) counts in, once the auction ends.
    pub people_to: Option<TarotPeopleTo>,
    /// The declarer's discards With the People, in order (`[]` when none were made).
    pub discards: Vec<Card>,
    /// The two camps' totals (card points and tricks) that decide the contract, after the hand:
    /// 163 together (148 with Honours of 5, §4.5).
    pub camp_points: Option<CampPoints>,
    /// The Fool played to a trick by another player than the trick's winner, and what became of it.
    pub fool: Option<TarotFool>,
}

impl TarotHand {
    fn details(&self, camp_points: Option<CampPoints>) -> TarotDetails {
        let started = !matches!(self.phase, Phase::Auction | Phase::Choice);
        TarotDetails {
            penalty_play: started && self.penalty_play(),
            standing_bid: match self.contract {
                Some(_) => None,
                None => self
                    .standing
                    .as_ref()
                    .or(self.auction.standing())
                    .map(|(_, b)| b.clone()),
            },
            people: self.people.iter().collect(),
            people_to: started.then_some(self.extra_to),
            discards: self.discards.clone(),
            camp_points,
            fool: self.fool,
        }
    }
}

impl Rules for ImperialTarot {
    type Verb = Verb;
    type Details = TarotDetails;
    type Carried = NoDetails;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn table(&self, _options: &Options) -> Table {
        TABLE
    }

    fn setup(&self, _: &Options) -> deal::Setup {
        deal::Setup {
            pack: pack(),
            hand: deal::HandSize::Each(HAND),
            counted_by: None,
            parts: &[deal::Holds {
                part: deal::Part::Widow,
                what: "the People: the six cards dealt face down to the table",
                count: deal::Count::Between(PEOPLE as u32, PEOPLE as u32),
            }],
        }
    }

    fn start(
        &self,
        record: &HandRecord<Verb>,
        options: &Options,
        _: Table,
        before: &MatchState,
    ) -> Result<Box<dyn HandState<Verb>>, Vec<FieldError>> {
        Ok(Box::new(ImperialTarot::start_hand(
            record, options, before,
        )?))
    }
}

impl HandState<Verb> for TarotHand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        self.apply_action(index, action)
    }

    fn view(&self) -> TableView {
        let to_act = self.due().into_iter().collect();
        let mut view = TableView::new(
            self.phase_name(),
            to_act,
            &self.play,
            &self.adj.match_before,
        );
        view.trump = self.imperial;
        view.tally = self.adj.tally.clone();
        view.irregularities = self.adj.irregularities.clone();
        view.details = details::Details::of(self.details(None));
        view
    }

    fn locus(&self) -> Locus {
        Locus::of_play(&self.play, self.due().is_none())
    }

    fn candidates(&self) -> Vec<Action<Verb>> {
        self.candidates()
    }

    /// The auction offers every legal bid without declarations (docs/games/imperial-tarot.md):
    /// a bid announcing the Sparrow, the Slam or a handful stands for the same bid without them.
    fn offered_as(&self, action: Action<Verb>) -> Action<Verb> {
        match action.kind {
            Verb::Bid(bid) => Action {
                seat: action.seat,
                kind: Verb::Bid(TarotBid {
                    sparrow: false,
                    slam: false,
                    handful: TarotHandful::None,
                    shown_trumps: Vec::new(),
                    ..bid
                }),
            },
            kind => Action { kind, ..action },
        }
    }

    fn faulted(&self, index: usize) -> bool {
        self.adj.faulted(index) || self.play.faulted(index)
    }

    fn finish(self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        self.finish_hand(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    fn trick(cards: &[&str]) -> Trick {
        let mut t = Trick::new(1, Seat::N);
        for (i, card) in cards.iter().enumerate() {
            t.push(TABLE.seat(i), c(card), i);
        }
        t
    }

    fn hand(cards: &[&str]) -> CardSet {
        cards.iter().map(|s| c(s)).collect()
    }

    const HEARTS: Option<Suit> = Some(Suit::Hearts);

    /// §4.1: the Imperial King (42) between T20 (41) and T21 (43); the Imperial 8 (16) beats T7 (15).
    #[test]
    fn imperial_cards_interleave_with_the_trumps() {
        assert_eq!(winner(&trick(&["T20", "KH", "2S", "3S"]), HEARTS), 1);
        assert_eq!(winner(&trick(&["T21", "KH", "2S", "3S"]), HEARTS), 0);
        assert_eq!(winner(&trick(&["T7", "8H", "7H", "AS"]), HEARTS), 1);
        assert_eq!(winner(&trick(&["7H", "T7", "AS", "KS"]), HEARTS), 1);
        assert_eq!(
            winner(&trick(&["AH", "T1", "2H", "AS"]), HEARTS),
            2,
            "2H (4) > T1 (3) > AH (2)"
        );
        // Without an Imperial suit (Penalty Play) hearts are plain: any trump beats them.
        assert_eq!(winner(&trick(&["KH", "T1", "QH", "AS"]), None), 1);
    }

    /// IT-11: the Magician takes a trick holding the Imperial King, even beside the World.
    #[test]
    fn the_magician_beats_the_imperial_king_and_the_world() {
        assert_eq!(winner(&trick(&["KH", "T21", "T1", "2S"]), HEARTS), 2);
        assert_eq!(winner(&trick(&["KH", "T21", "T2", "2S"]), HEARTS), 1);
        assert_eq!(
            winner(&trick(&["KH", "T21", "T1", "2S"]), None),
            1,
            "no Imperial King rule in Penalty Play"
        );
    }

    /// §4.2, §4.3: the Fool never wins and does not set the led suit; plain suits rank K Q C J … A.
    #[test]
    fn the_fool_neither_wins_nor_leads() {
        let t = trick(&["FOOL", "2S", "KS", "AD"]);
        assert_eq!(led(&t, HEARTS), Some(Kind::Plain(Suit::Spades)));
        assert_eq!(winner(&t, HEARTS), 2);
        assert_eq!(
            winner(&trick(&["CS", "JS", "AS", "QD"]), HEARTS),
            0,
            "C above J, ace lowest"
        );
        let t = trick(&["FOOL"]);
        assert_eq!(
            judge(HEARTS, &t, hand(&["T3", "KS"]), c("KS")),
            None,
            "after a Fool lead any card"
        );
    }

    /// §4.2, IT-10: follow; void, trump with either kind; void in one trump suit, the other.
    #[test]
    fn following_and_trumping() {
        let code = |t: &[&str], h: &[&str], card: &str| {
            judge(HEARTS, &trick(t), hand(h), c(card)).map(|f| f.code)
        };
        assert_eq!(code(&["KS"], &["2S", "T5"], "T5"), Some("revoke"));
        assert_eq!(
            code(&["KS"], &["2D", "T5", "3H"], "3H"),
            None,
            "an Imperial card trumps"
        );
        assert_eq!(code(&["KS"], &["2D", "T5"], "2D"), Some("failed_to_trump"));
        assert_eq!(
            code(&["KS"], &["2D", "T5"], "FOOL"),
            None,
            "the Fool is always allowed"
        );
        assert_eq!(
            code(&["T9"], &["2D", "3H"], "2D"),
            Some("failed_to_trump"),
            "trump lead: Imperial if held"
        );
        assert_eq!(code(&["T9"], &["2D", "3H"], "3H"), None);
        assert_eq!(
            code(&["T9"], &["T2", "3H"], "3H"),
            Some("revoke"),
            "an Imperial card is no trump"
        );
        assert_eq!(
            code(&["5H"], &["2D", "T3"], "2D"),
            Some("failed_to_trump"),
            "Imperial lead: a trump if held"
        );
        assert_eq!(
            code(&["5H"], &["2D", "KD"], "2D"),
            None,
            "void in both: any card"
        );
        assert_eq!(
            code(&["KS", "T4"], &["2D", "T1"], "2D"),
            Some("failed_to_trump"),
            "no need to overtrump, but to trump"
        );
    }

    /// IT-j: discard classes.
    #[test]
    fn what_may_be_discarded() {
        let d = |s: &str, x| discardable(c(s), HEARTS, x);
        assert_eq!(d("2S", false), Discardable::Plain);
        assert_eq!(d("KS", false), Discardable::Never);
        assert_eq!(d("T1", false), Discardable::Never);
        assert_eq!(d("FOOL", false), Discardable::Never);
        assert_eq!(d("T20", false), Discardable::EmptyTrump);
        assert_eq!(d("TH", false), Discardable::EmptyTrump);
        assert_eq!(d("JH", false), Discardable::Never);
        assert_eq!(d("JH", true), Discardable::Plain, "imperial_discardable");
        assert_eq!(d("KH", true), Discardable::Never);
    }

    /// IT-1: a set's points counted by kind (`points_of`) are its cards' points one by one.
    #[test]
    fn points_counted_by_kind_are_the_cards_points() {
        for honour in [5, 10] {
            let rules = Variants {
                honour,
                margin: false,
                handful_only_if_made: false,
                imperial_discardable: false,
                penalties: true,
            };
            let pack: Vec<Card> = packs::tarot78().cards.iter().collect();
            // Every single card, and many mixed sets: the 78 cards cut in runs of every length.
            for len in 1..=pack.len() {
                for run in pack.chunks(len) {
                    let set = CardSet::of(run);
                    let each: i32 = run.iter().map(|&c| rules.points(c)).sum();
                    assert_eq!(rules.points_of(set), each, "{set}");
                }
            }
        }
    }

    /// IT-1, IT-3: 145 card points and 18 tricks; the targets, absolute or as a margin.
    #[test]
    fn points_and_targets() {
        let options = |raw: serde_json::Value| {
            let raw = serde_json::from_value(raw).unwrap();
            Variants::of(&Options::resolve(OPTIONS, &raw, "/options").unwrap())
        };
        let rules = options(serde_json::json!({}));
        assert_eq!(rules.hand_total(), 163);
        assert_eq!(
            [TarotLevel::Skirmish, TarotLevel::Regicide].map(|l| rules.target(l)),
            [55, 95]
        );
        assert_eq!(
            options(serde_json::json!({"honour_value": 5})).hand_total(),
            148
        );
        let margin = options(serde_json::json!({"target": "margin"}));
        assert_eq!(
            margin.target(TarotLevel::Skirmish),
            109,
            "2 x 109 >= 163 + 55"
        );
        assert_eq!(
            margin.target(TarotLevel::Battle),
            114,
            "2 x 114 >= 163 + 65 > 2 x 113"
        );
    }

    /// A hand of fixture 04's deal, ready for Penalty Play.
    fn penalty_play_hand() -> TarotHand {
        let f: serde_json::Value = serde_json::from_str(include_str!(
            "../../fixtures/imperial-tarot/04-all-pass-eldest-calls-penalty-play.json"
        ))
        .unwrap();
        let mut record = f["record"].clone();
        record["actions"] = serde_json::json!([]);
        let record: HandRecord = serde_json::from_value(record).unwrap();
        let record = record.read::<Verb>().unwrap();
        let options = Options::defaults(OPTIONS);
        let mut hand = ImperialTarot::start_hand(&record, &options, &MatchState::default())
            .ok()
            .unwrap();
        hand.set_penalty_play();
        hand
    }

    /// §4.6, IT-15: every player tied for the most pays it to each other player.
    #[test]
    fn penalty_play_ties_for_the_most_each_pay() {
        let mut hand = penalty_play_hand();
        hand.score_penalty_play(&[40, 25, 40, 40]);
        let items: Vec<(String, i32)> = hand
            .adj
            .score_items
            .iter()
            .map(|i| (i.side.to_string(), i.points))
            .collect();
        // N, S and W each pay 40 to the three others and receive 40 from the two other payers.
        let expected = [("N", -40), ("S", -40), ("W", -40), ("E", 120)];
        assert_eq!(items, expected.map(|(s, p)| (s.to_string(), p)));
    }

    /// §5 DEFAULT: the Penalty Play offender pays at least 50 to each other player, and nobody else.
    #[test]
    fn a_penalty_play_offender_pays_his_count_or_fifty() {
        for (count, each) in [(49, 50), (51, 51)] {
            let mut hand = penalty_play_hand();
            hand.offence(Irregularity {
                code: "revoke",
                action_index: Some(9),
                trick: Some(2),
                seat: Seat::E,
                card: Some(Card::FOOL),
                rule: "imperial-tarot.md §4.2",
                explanation: String::new(),
                consequence: String::new(),
                effect: Default::default(),
            });
            hand.score_penalty_play(&[60, count, 30, 20]);
            let e = &hand.adj.irregularities[0].effect;
            assert_eq!(e.points[TABLE.side(Seat::E)], -3 * each);
            assert_eq!(
                e.points[TABLE.side(Seat::N)],
                each,
                "the top count does not pay"
            );
        }
    }
}
