//! Royal Porcio (`docs/rules/royal-porcio.md`): Stubs & Spoils' tricks (`engine::stubs`) after an
//! auction of colour, number (the initiative) and level, opened by the dealer, passes not final.
//! While the face-up gallery shows both colours every bid brings a duone, which may turn a gallery
//! card of the other colour down until one colour, the mode, remains. The captain names the special
//! suit the level allows, exchanges the face-down gallery cards through his partner, the Hand, who
//! leads; the captain's side has a once-a-hand void privilege. The stub balance scores against the
//! initiative; silver and gold add bonuses from stubs (black) or unplayed cards (red). Game: 250
//! and 50 ahead.

use crate::cards::{Card, CardSet, Rank, Suit, packs};
use crate::details;
use crate::engine::auction::{Auction, Conduct, End, Ladder, NoBid, Rounds};
use crate::engine::deal::{Count, HandSize, Holds, Part, Setup};
use crate::engine::stubs::{Mode, Spoil, Stubs};
use crate::engine::{
    Adjudication, Bonus, BonusStatus, Contract, Decided, Ending, Event, FieldError, GameInfo,
    HandState, Irregularity, Locus, MatchState, OptionKind, OptionSpec, Options, Outcome, PerSide,
    PlayedCard, RecordError, Rotation, Rules, ScoreSource, Seat, Side, Table, TableView, Trick,
    TrickPlay, deal, must_follow_suit,
};
use crate::record::{Action, Cards, HandRecord, Placeholder, Yes};
use serde::{Deserialize, Serialize};
use std::fmt;
use utoipa::ToSchema;

pub struct RoyalPorcio;

/// A bid (§3.1): colour, number (the initiative, 1–12) and level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = RoyalPorcioBid)]
pub struct Bid {
    /// Red or black: the mode the bidder proposes.
    pub color: Mode,
    /// The initiative, 1 to 12.
    pub number: u8,
    pub level: Level,
}

/// A bid's level (§3.1): how many special-suit cards the gallery holds, and the bonuses scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = RoyalPorcioLevel)]
pub enum Level {
    Bronze,
    Silver,
    Gold,
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let color = match self.color {
            Mode::Black => "black",
            Mode::Red => "red",
        };
        let level = match self.level {
            Level::Bronze => "bronze",
            Level::Silver => "silver",
            Level::Gold => "gold",
        };
        write!(f, "{} {color} {level}", self.number)
    }
}

impl Bid {
    /// §3.1: number first, then red over black, then gold over silver over bronze.
    fn key(self) -> (u8, bool, Level) {
        (self.number, self.color == Mode::Red, self.level)
    }
}

impl Placeholder for Bid {
    const PLACEHOLDER: &'static str = "{\"color\": \"red\", \"number\": 1, \"level\": \"silver\"}";
}

/// The card the spoil taker takes, and whether he turns it round under the void privilege (§4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = RoyalPorcioSpoil)]
pub struct SpoilTaken {
    pub card: Card,
    /// The captain or the Hand turns the spoil round (§4.2, once a hand for their side).
    #[serde(default)]
    pub void_privilege: bool,
}

impl Placeholder for SpoilTaken {
    const PLACEHOLDER: &'static str = "{\"card\": \"5H\", \"void_privilege\": false}";
}

crate::verbs! {
    /// What a record of Royal Porcio can say.
    pub enum Verb in "Royal Porcio" {
        Pass(Yes) = "pass": "A pass in the auction (value `true`); not final (§3.1, RP-3).",
        Bid(Bid) = "bid": "A bid: colour, number 1–12 and level (§3.1).",
        DuoneCard(Card) = "duone_card": "The bidder's duone card, from his hand (§3.2).",
        DuoneReply(Card) = "duone_reply": "The responder's card in the duone (§3.2).",
        Yours(Yes) = "yours": "The responder gives the duone up (value `true`, §3.2).",
        TurnDown(Card) = "turn_down": "The face-up gallery card of the other colour the bidder turns down after an unblocked duone (§3.2, RP-5).",
        SpecialSuit(Suit) = "special_suit": "The captain's trump (black) or trojan (red) suit (§4.1).",
        ExchangeGive(Cards) = "exchange_give": "The captain's cards passed to the Hand, as many as he picked up from the gallery (§4.1).",
        ExchangeReturn(Cards) = "exchange_return": "The Hand's cards returned face down to the gallery (§4.1).",
        Play(Card) = "play": "A card played to the current trick.",
        Correct(Card) = "correct": "Replaces the seat's card in the current, incomplete trick (a revoke correction).",
        Spoil(SpoilTaken) = "spoil": "The card the spoil taker takes from the trick, with `void_privilege: true` when the captain or the Hand turns it round (§4.2).",
    }
}

crate::auction_calls!(Verb, Bid);

static INFO: GameInfo = GameInfo {
    id: "royal-porcio",
    name: "Royal Porcio",
    tables: crate::engine::Tables(&[Table::FOUR]),
    deck: "52-card pack",
    game_target: GAME,
    options: &[
        OptionSpec {
            name: "auction_starts",
            kind: OptionKind::Choice {
                values: &["dealer", "eldest"],
                default: "dealer",
            },
            description: "Who calls first: the dealer (the editor's guess) or the player on his left.",
            rule: "royal-porcio.md §3.1, RP-1",
        },
        OptionSpec {
            name: "all_pass",
            kind: OptionKind::Choice {
                values: &["next_dealer", "same_dealer"],
                default: "next_dealer",
            },
            description: "After four initial passes the next dealer deals, or the same dealer again.",
            rule: "royal-porcio.md §3.1, RP-2",
        },
        OptionSpec {
            name: "pass_is_final",
            kind: OptionKind::Flag { default: false },
            description: "A player who passed may not bid again (the auction ends when all but the \
                          high bidder have passed).",
            rule: "royal-porcio.md §3.1, RP-3",
        },
        OptionSpec {
            name: "incomplete_duone_scope",
            kind: OptionKind::Choice {
                values: &["game", "session"],
                default: "game",
            },
            description: "`game`: the count of auctions ended with duones incomplete starts afresh \
                          with each game (it is 0 in the match state after a game's last hand); \
                          `session`: it runs on, the caller carrying it into the next game.",
            rule: "royal-porcio.md §3.3, RP-6",
        },
        OptionSpec {
            name: "consecutive",
            kind: OptionKind::Choice {
                values: &["own", "across_side"],
                default: "own",
            },
            description: "Black quartets: four consecutive stubs in the player's own row, or in \
                          the order his side won them.",
            rule: "royal-porcio.md §4.4, RP-8",
        },
        OptionSpec {
            name: "revoke_penalty",
            kind: OptionKind::Choice {
                values: &["default", "none"],
                default: "default",
            },
            description: "`default`: each established revoke moves up to 2 stubs against the \
                          offenders, each illegal call gives the opponents 10 points; `none`: \
                          both are reported only.",
            rule: "royal-porcio.md §5, RP-e",
        },
    ],
    rules: "docs/rules/royal-porcio.md",
    irregularities: &["illegal_bid", "duone_revoke", "revoke"],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    record_errors: &[
        "out_of_turn",
        "unexpected_action",
        "card_not_held",
        "card_played_twice",
        "invalid_correct",
        "action_after_end",
        "incomplete_hand",
        "invalid_bid",
        "invalid_turn_down",
        "invalid_special_suit",
        "invalid_exchange",
        "ineligible_spoil",
        "invalid_void_privilege",
    ],
    events: &[
        "mode_established",
        "thrown_in",
        "redeal",
        "no_special_suit",
        "void_privilege",
    ],
    score_codes: &[INITIATIVE_MADE, INITIATIVE_FAILED, QUARTET, SEQUENCE],
    titles: crate::engine::Titles(&[
        ("invalid_bid", "Bid that is not a bid of the game"),
        ("duone_revoke", "Duone reply against the rules"),
        (
            "invalid_turn_down",
            "Gallery card that may not be turned down",
        ),
        (
            "invalid_special_suit",
            "Special suit the level does not allow",
        ),
        ("invalid_exchange", "Exchange of the wrong number of cards"),
        ("ineligible_spoil", "Spoil the taker may not take"),
        ("invalid_void_privilege", "Void privilege not allowed"),
        ("mode_established", "Mode established"),
        ("thrown_in", "Cards thrown in"),
        ("redeal", "Redeal by the same dealer"),
        ("no_special_suit", "Duones incomplete: no special suit"),
        ("void_privilege", "Void privilege"),
        (INITIATIVE_MADE, "Balance reaching the initiative"),
        (INITIATIVE_FAILED, "Balance short of the initiative"),
        (QUARTET, "Quartet of picture cards"),
        (SEQUENCE, "Sequence"),
    ]),
};

const GAME: i32 = 250;
/// §4.5: a side wins at 250 or more and at least this far ahead.
const LEAD: i32 = 50;
const DEALT: usize = 12;
/// §5 DEFAULT: points to the opponents of each illegal call.
const CALL_PENALTY: i32 = 10;
const QUARTET_POINTS: i32 = 13;
const INITIATIVE_MADE: &str = "initiative_made";
const INITIATIVE_FAILED: &str = "initiative_failed";
const QUARTET: &str = "quartet";
const SEQUENCE: &str = "sequence";
const RULE_PLAY: &str = "royal-porcio.md §4.2, stubs-and-spoils.md §3";

/// What Royal Porcio carries from hand to hand.
#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema)]
#[schema(as = RoyalPorcioCarried)]
pub struct Carried {
    /// Auctions ended with the duones incomplete so far (§3.3, RP-6, RP-g): the first is redealt,
    /// later ones are played without a special suit.
    #[serde(default)]
    pub incomplete_duones: u32,
}

/// One gallery card and whether it lies face down.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[schema(as = RoyalPorcioGalleryCard)]
pub struct GalleryCard {
    pub card: Card,
    pub face_down: bool,
}

/// What Royal Porcio adds to the adjudication and the table view.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = RoyalPorcioDetails)]
pub struct Details {
    /// The four gallery cards in deal order, as they lie now.
    pub gallery: Vec<GalleryCard>,
    /// The colour established by the duones (or by a one-colour gallery); `null` while both show.
    pub established: Option<Mode>,
    /// The duone cards lying face up in front of their players during the auction.
    pub duone_cards: Vec<PlayedCard>,
    /// The final bid, once the auction is over.
    pub bid: Option<Bid>,
    pub captain: Option<Seat>,
    /// The captain's partner, who leads.
    pub hand: Option<Seat>,
    /// The mode of play, once known.
    pub mode: Option<Mode>,
    /// Trump (black) or trojan (red); `null` before it is named and in case B.
    pub special_suit: Option<Suit>,
    /// The level the hand is scored at (bronze in case B).
    pub scored_level: Option<Level>,
    /// The spoil cards turned round under the void privilege, in front of their holder.
    pub reversed: Vec<PlayedCard>,
}

/// What Royal Porcio adds to each side's tally.
#[derive(Clone, Copy, Debug, Serialize)]
struct TallyDetails {
    stubs_won: i32,
    stubs: i32,
}

impl Rules for RoyalPorcio {
    type Verb = Verb;
    type Details = Details;
    type Carried = Carried;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn setup(&self, _: &Options) -> Setup {
        Setup {
            pack: packs::standard52(),
            hand: HandSize::Each(DEALT),
            counted_by: None,
            parts: &[Holds {
                part: Part::FaceUp,
                what: "the gallery, in deal order",
                count: Count::Between(4, 4),
            }],
        }
    }

    fn rotation(&self, _: &Options) -> Rotation {
        Rotation::ByResult(
            "royal-porcio.md §3.1, §3.3, RP-2, RP-g: the deal passes left, except the redeal after \
             the first incomplete duone (and four passes under all_pass = same_dealer): the same dealer",
        )
    }

    fn already_won(&self, scores: &PerSide<i32>, _: &Options) -> Option<Decided> {
        let side = game_winner(scores)?;
        Some(Decided {
            winner: Some(side),
            at: side,
            why: format!(
                "{side} has {} against {}: the game is won at {GAME} and {LEAD} ahead",
                scores[side],
                scores[side.other()]
            ),
        })
    }

    fn start(
        &self,
        record: &HandRecord<Verb>,
        options: &Options,
        _: Table,
        before: &MatchState,
    ) -> Result<Box<dyn HandState<Verb>>, Vec<FieldError>> {
        let pack = packs::standard52();
        let mut dealt = deal::check_cards(record, Table::FOUR, &pack)?;
        deal::check_undealt(&record.face_up, "face_up", &pack, &mut dealt)?;
        deal::check_whole_pack(&dealt, &pack)?;
        let carried: Carried = details::read(&before.details, "/match_state")?;
        let dealer = record.dealer;
        let gallery: [Card; 4] = [
            record.face_up[0],
            record.face_up[1],
            record.face_up[2],
            record.face_up[3],
        ];
        let first = match options.choice("auction_starts") {
            "eldest" => Table::FOUR.left(dealer),
            _ => dealer,
        };
        let conduct = Conduct {
            rounds: if options.flag("pass_is_final") {
                Rounds::PassesFinal
            } else {
                Rounds::PassesOpen
            },
            equal: None,
            no_bid: NoBid::Passed,
            rule: "royal-porcio.md §3.1, RP-3",
        };
        let mut hand = Hand {
            phase: Phase::Auction,
            auction: Auction::new(Table::FOUR, first, Bids, conduct),
            gallery,
            face_down: [false; 4],
            established: None,
            in_front: [Vec::new(), Vec::new(), Vec::new(), Vec::new()],
            calls: Vec::new(),
            contract: None,
            special: None,
            privilege: None,
            reversed: Vec::new(),
            play: TrickPlay::new(Table::FOUR, dealt.hands, dealer),
            stubs: Stubs::new(Mode::Black, None, true),
            penalties: options.choice("revoke_penalty") == "default",
            own_row: options.choice("consecutive") == "own",
            game_scope: options.choice("incomplete_duone_scope") == "game",
            same_dealer_on_passes: options.choice("all_pass") == "same_dealer",
            incomplete_duones: carried.incomplete_duones,
            adj: Adjudication::new(INFO.id, dealer, before, 15),
        };
        // RP-12: a gallery dealt in one colour establishes it from the start; no duones.
        hand.establish_if_one_colour(None);
        hand.show();
        Ok(Box::new(hand))
    }
}

/// §4.5: a side at 250 or more and at least 50 ahead of the other.
fn game_winner(scores: &PerSide<i32>) -> Option<Side> {
    Side::BOTH
        .into_iter()
        .find(|&s| scores[s] >= GAME && scores[s] - scores[s.other()] >= LEAD)
}

/// §3.1: the ladder of bids, ordered by number, colour and level; the first bid has number 1.
#[derive(Clone, Copy, Debug)]
struct Bids;

impl Ladder for Bids {
    type Bid = Bid;
    type Rank = (u8, bool, Level);

    fn rank(&self, bid: &Bid) -> Option<Self::Rank> {
        (1..=12).contains(&bid.number).then(|| bid.key())
    }

    fn bids(&self) -> Vec<Bid> {
        let mut out = Vec::new();
        for number in 1..=12 {
            for color in [Mode::Black, Mode::Red] {
                for level in [Level::Bronze, Level::Silver, Level::Gold] {
                    out.push(Bid {
                        color,
                        number,
                        level,
                    });
                }
            }
        }
        out
    }

    fn follows(&self, _: Seat, bid: &Self::Rank, standing: Option<&Self::Rank>) -> bool {
        match standing {
            None => bid.0 == 1,
            Some(s) => bid > s,
        }
    }
}

/// §4.1, RP-7: the level a special suit with `count` cards among the four gallery cards fits.
fn level_of(count: usize) -> Level {
    match count {
        0 => Level::Bronze,
        1 => Level::Silver,
        _ => Level::Gold,
    }
}

fn colour(card: Card) -> Mode {
    Mode::of(card.suit_unchecked())
}

/// A duone in progress (§3.2).
#[derive(Clone, Copy, Debug)]
struct Duone {
    bidder: Seat,
    color: Mode,
    responder: Seat,
    card: Option<Card>,
}

#[derive(Clone, Copy, Debug)]
enum Phase {
    Auction,
    /// §3.2 a: the bidder's duone card is due.
    DuoneCard(Duone),
    /// §3.2 b: the responder's reply is due.
    DuoneReply(Duone),
    /// §3.2 c: the duone was not blocked; the bidder turns a gallery card down.
    TurnDown(Duone),
    /// §4.1: the captain names the special suit.
    SpecialSuit,
    /// §4.1: the captain passes `k` cards to the Hand.
    Give(usize),
    /// §4.1: the Hand returns `k` cards to the gallery.
    Return(usize),
    Play,
    Spoil(Spoil),
    Over,
}

#[derive(Clone)]
struct Hand {
    phase: Phase,
    auction: Auction<Bids>,
    gallery: [Card; 4],
    face_down: [bool; 4],
    established: Option<Mode>,
    /// Duone cards in front of each seat (by seat position), until the auction ends.
    in_front: [Vec<Card>; 4],
    /// Illegal calls (§5): the irregularity's index and the offending side.
    calls: Vec<(usize, Side)>,
    /// The captain and the final bid.
    contract: Option<(Seat, Bid)>,
    special: Option<Suit>,
    /// The void privilege once used: the seat and the suit he is void in for good.
    privilege: Option<(Seat, Suit)>,
    reversed: Vec<PlayedCard>,
    play: TrickPlay,
    stubs: Stubs,
    penalties: bool,
    own_row: bool,
    game_scope: bool,
    same_dealer_on_passes: bool,
    incomplete_duones: u32,
    adj: Adjudication,
}

fn partner(seat: Seat) -> Seat {
    Table::FOUR.left(Table::FOUR.left(seat))
}

impl Hand {
    fn face_up_colours(&self) -> (bool, bool) {
        let mut black = false;
        let mut red = false;
        for (i, &c) in self.gallery.iter().enumerate() {
            if !self.face_down[i] {
                match colour(c) {
                    Mode::Black => black = true,
                    Mode::Red => red = true,
                }
            }
        }
        (black, red)
    }

    fn duones_active(&self) -> bool {
        self.established.is_none()
    }

    /// §3.2: once the face-up gallery shows one colour it is established; the dealer turns that
    /// colour's face-down cards up again.
    fn establish_if_one_colour(&mut self, index: Option<usize>) {
        if self.established.is_some() {
            return;
        }
        let mode = match self.face_up_colours() {
            (true, false) => Mode::Black,
            (false, true) => Mode::Red,
            _ => return,
        };
        self.established = Some(mode);
        for i in 0..4 {
            self.face_down[i] = colour(self.gallery[i]) != mode;
        }
        let word = if mode == Mode::Black { "black" } else { "red" };
        let detail = match index {
            None => format!(
                "the gallery is dealt all {word}: {word} is the mode, there are no duones (§3.2, RP-12)"
            ),
            Some(_) => format!(
                "the face-up gallery shows only {word}: {word} is established as the mode, the \
                 other colour's cards lie face down (§3.2)"
            ),
        };
        self.adj.events.push(Event::new(
            "mode_established",
            index,
            None,
            self.gallery.to_vec(),
            detail,
        ));
    }

    /// The number of gallery cards (all four, RP-7) of `suit`.
    fn in_gallery(&self, suit: Suit) -> usize {
        self.gallery
            .iter()
            .filter(|c| c.suit_unchecked() == suit)
            .count()
    }

    /// §3.1, RP-7: a level is achievable if some suit's gallery count fits it.
    fn achievable(&self, level: Level) -> bool {
        Suit::ALL
            .iter()
            .any(|&s| level_of(self.in_gallery(s)) == level)
    }

    /// Why `bid` by `seat` is illegal (§3.1, RP-b), if it is.
    fn illegal(&self, seat: Seat, bid: Bid) -> Option<String> {
        match self.auction.standing() {
            None if bid.number != 1 => {
                return Some("the first bid of the auction must have number 1 (§3.1)".into());
            }
            Some((holder, high)) if bid.key() <= high.key() => {
                return Some(format!(
                    "{holder} has bid {high}, which {bid} does not exceed (§3.1)"
                ));
            }
            _ => {}
        }
        if let Some(mode) = self.established
            && mode != bid.color
        {
            return Some("the other colour is established: every bid must be of it (§3.2)".into());
        }
        if !self.achievable(bid.level) {
            return Some(format!(
                "no suit's count in the gallery allows the level of {bid} (§3.1, RP-7)"
            ));
        }
        if self.duones_active() && self.play.hand(seat).is_empty() {
            return Some("he has no card in hand for the duone the bid brings (RP-b)".to_string());
        }
        None
    }

    /// §5 DEFAULT: an illegal call (or duone reply) counts as a pass (as blocked); the offending
    /// side's opponents receive 10 points at the end of the hand.
    fn illegal_call(
        &mut self,
        code: &'static str,
        index: usize,
        seat: Seat,
        card: Option<Card>,
        explanation: String,
        effect: &str,
    ) {
        let consequence = if self.penalties {
            format!(
                "{effect}; {CALL_PENALTY} points to the opponents at the end of the hand (§5 DEFAULT, RP-a, RP-c)"
            )
        } else {
            format!("{effect}; no points: the revoke_penalty option is 'none' (RP-e)")
        };
        self.calls
            .push((self.adj.irregularities.len(), Table::FOUR.side(seat)));
        self.adj.irregularities.push(Irregularity {
            code,
            action_index: Some(index),
            trick: None,
            seat,
            card,
            rule: "royal-porcio.md §5",
            explanation,
            consequence,
            effect: Default::default(),
        });
    }

    /// A call in the auction: a legal bid (with its duone while both colours show), an illegal
    /// one counted as a pass, or a pass.
    fn call(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        let mut call = action.clone();
        if let Verb::Bid(bid) = action.kind {
            if !(1..=12).contains(&bid.number) {
                return Err(RecordError::on(
                    "invalid_bid",
                    index,
                    action,
                    format!("a bid's number is 1 to 12, not {} (RP-h)", bid.number),
                ));
            }
            if let Some(why) = self.illegal(seat, bid) {
                self.illegal_call(
                    "illegal_bid",
                    index,
                    seat,
                    None,
                    format!("{seat} may not bid {bid}: {why}"),
                    "the bid counts as a pass, with no duone (RP-b)",
                );
                call.kind = Verb::Pass(Yes);
            }
        }
        let end = self.auction.apply(index, &call)?;
        if let Verb::Bid(bid) = call.kind
            && self.duones_active()
        {
            let responder = match bid.color {
                Mode::Black => Table::FOUR.left(seat),
                Mode::Red => Table::FOUR.right(seat),
            };
            self.phase = Phase::DuoneCard(Duone {
                bidder: seat,
                color: bid.color,
                responder,
                card: None,
            });
        }
        match end {
            None => {}
            Some(End::Passed) => self.all_passed(index),
            Some(End::Won { declarer, bid }) => self.auction_won(index, declarer, bid),
            Some(End::Compelled { .. }) => unreachable!("Royal Porcio compels no bid"),
        }
        self.show();
        Ok(())
    }

    /// §3.1, RP-2: four initial passes throw the cards in.
    fn all_passed(&mut self, index: usize) {
        self.adj.outcome = Outcome::Void;
        self.phase = Phase::Over;
        self.adj.events.push(Event::new(
            "thrown_in",
            index,
            None,
            Vec::new(),
            if self.same_dealer_on_passes {
                "the first four calls are passes: the cards are thrown in, no score; the same dealer deals again (§3.1, RP-2 variant)".into()
            } else {
                "the first four calls are passes: the cards are thrown in, no score; the next dealer deals (§3.1, RP-2)".into()
            },
        ));
    }

    /// §3.1: three passes after a bid; the duone cards go back to their owners (§3.2).
    fn auction_won(&mut self, index: usize, captain: Seat, bid: Bid) {
        for seat in Table::FOUR.seats() {
            for card in std::mem::take(&mut self.in_front[seat.pos()]) {
                self.play.hand_mut(seat).insert(card);
            }
        }
        self.contract = Some((captain, bid));
        let mut contract = Contract::new(captain, Table::FOUR.side(captain));
        contract.bid = Some(serde_json::json!(bid));
        contract.target = Some(bid.number as i32);
        self.adj.contract = Some(contract);
        let hand = partner(captain);
        if self.established.is_none() {
            self.incomplete_duones += 1;
            if self.incomplete_duones == 1 {
                // §3.3, RP-6: the first time in the game, the same dealer redeals.
                self.adj.outcome = Outcome::Void;
                self.phase = Phase::Over;
                self.adj.events.push(Event::new(
                    "redeal",
                    index,
                    None,
                    Vec::new(),
                    "the auction ended with both colours face up in the gallery, the first time in this game: thrown in, no score, the same dealer redeals (§3.3, RP-6)".into(),
                ));
                return;
            }
            // §3.3 case B: the final bid's colour, no special suit, the gallery out of play, bronze.
            for f in &mut self.face_down {
                *f = true;
            }
            self.stubs = Stubs::new(bid.color, None, self.penalties);
            self.adj.events.push(Event::new(
                "no_special_suit",
                index,
                None,
                Vec::new(),
                format!(
                    "the auction ended with both colours face up in the gallery again: {} mode, no special suit, no exchange, scored as bronze (§3.3, §4.2 case B, RP-13)",
                    if bid.color == Mode::Black { "black" } else { "red" }
                ),
            ));
            self.start_play(hand);
            return;
        }
        self.phase = Phase::SpecialSuit;
    }

    /// §4.2: the Hand leads to the first trick.
    fn start_play(&mut self, hand: Seat) {
        self.play.lead_next(hand);
        self.phase = Phase::Play;
    }

    /// §3.2 b: judges the responder's reply (a card, or `None` for `yours`); true if blocked.
    fn reply(
        &mut self,
        index: usize,
        duone: Duone,
        reply: Option<Card>,
    ) -> Result<bool, RecordError> {
        let responder = duone.responder;
        let led = duone.card.expect("the bidder's card");
        let suit = led.suit_unchecked();
        let order = duone.color.order();
        let beats = |c: Card| {
            c.suit_unchecked() == suit
                && match duone.color {
                    Mode::Black => {
                        order.strength(c.rank_unchecked()) > order.strength(led.rank_unchecked())
                    }
                    // A red bid is blocked by a lower card in red order.
                    Mode::Red => {
                        order.strength(c.rank_unchecked()) < order.strength(led.rank_unchecked())
                    }
                }
        };
        let holding = self.play.hand(responder).of_suit(suit);
        if let Some(card) = reply {
            self.play.give_up(index, responder, card, "duone_reply")?;
            self.in_front[responder.pos()].push(card);
            if !holding.is_empty() && card.suit_unchecked() != suit {
                self.illegal_call(
                    "duone_revoke",
                    index,
                    responder,
                    Some(card),
                    format!("{responder} replied {card} to {led} while holding {holding}"),
                    "the duone counts as blocked (§5 DEFAULT)",
                );
                return Ok(true);
            }
            return Ok(beats(card));
        }
        if !holding.is_empty() && holding.iter().all(beats) {
            self.illegal_call(
                "duone_revoke",
                index,
                responder,
                None,
                format!(
                    "{responder} said 'yours' to {led} while every card he holds in the suit, {holding}, blocks: he must block (§3.2, RP-4)"
                ),
                "the duone counts as blocked (RP-b)",
            );
            return Ok(true);
        }
        Ok(false)
    }

    /// The seat due to act (README C12: checked before the verb).
    fn due(&self) -> Option<Seat> {
        let (captain, hand) = self
            .contract
            .map(|(c, _)| (Some(c), Some(partner(c))))
            .unwrap_or((None, None));
        match self.phase {
            Phase::Auction => self.auction.due(),
            Phase::DuoneCard(d) | Phase::TurnDown(d) => Some(d.bidder),
            Phase::DuoneReply(d) => Some(d.responder),
            Phase::SpecialSuit | Phase::Give(_) => captain,
            Phase::Return(_) => hand,
            Phase::Play => self.play.to_play(),
            Phase::Spoil(s) => Some(s.taker),
            Phase::Over => None,
        }
    }

    /// §4.1: the special suit fits the level; the captain picks up the face-down gallery cards.
    fn special_suit(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        suit: Suit,
    ) -> Result<(), RecordError> {
        let (captain, bid) = self.contract.expect("the auction is won");
        let count = self.in_gallery(suit);
        if level_of(count) != bid.level {
            return Err(RecordError::on(
                "invalid_special_suit",
                index,
                action,
                format!(
                    "{} card{} of {} in the gallery fit{} {}, not the {} bid (§4.1, RP-7, RP-d)",
                    count,
                    if count == 1 { "" } else { "s" },
                    suit.letter(),
                    if count == 1 { "s" } else { "" },
                    match level_of(count) {
                        Level::Bronze => "bronze",
                        Level::Silver => "silver",
                        Level::Gold => "gold",
                    },
                    match bid.level {
                        Level::Bronze => "bronze",
                        Level::Silver => "silver",
                        Level::Gold => "gold",
                    }
                ),
            ));
        }
        let mode = self.established.expect("case A");
        self.special = Some(suit);
        self.stubs = Stubs::new(mode, Some(suit), self.penalties);
        if mode == Mode::Black {
            self.adj.trump = Some(suit);
        }
        let picked: Vec<Card> = (0..4)
            .filter(|&i| self.face_down[i])
            .map(|i| self.gallery[i])
            .collect();
        let k = picked.len();
        for card in picked {
            self.play.hand_mut(captain).insert(card);
        }
        if k == 0 {
            // RP-12, RP-g: a one-colour gallery: no exchange.
            self.start_play(partner(captain));
        } else {
            self.phase = Phase::Give(k);
        }
        Ok(())
    }

    /// §4.1, RP-d, RP-h: `k` different cards, then each given up (README C12).
    fn exchange(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        cards: &[Card],
        k: usize,
        verb: &str,
    ) -> Result<(), RecordError> {
        let distinct: CardSet = cards.iter().copied().collect();
        if cards.len() != k || distinct.len() as usize != k {
            return Err(RecordError::on(
                "invalid_exchange",
                index,
                action,
                format!(
                    "{k} different cards are due, not {} (§4.1, RP-h)",
                    crate::cards::names(cards)
                ),
            ));
        }
        for &card in cards {
            self.play.give_up(index, action.seat, card, verb)?;
        }
        Ok(())
    }

    /// §4.2, RP-f: the spoil taker takes his card; the void privilege turns it round.
    fn spoil(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        spoil: Spoil,
        taken: SpoilTaken,
    ) -> Result<(), RecordError> {
        let seat = action.seat;
        let card = taken.card;
        let suit = card.suit_unchecked();
        let (captain, _) = self.contract.expect("play follows the auction");
        let hand = self.play.hand(seat);
        let invalid =
            |detail: String| RecordError::on("invalid_void_privilege", index, action, detail);
        let automatic = matches!(self.privilege, Some((s, v)) if s == seat && v == suit);
        if taken.void_privilege {
            if automatic {
                return Err(invalid(format!(
                    "{seat} already turned {} round: later spoils of that suit are turned round without a claim (RP-f)",
                    suit.letter()
                )));
            }
            if seat != captain && seat != partner(captain) {
                return Err(invalid(format!(
                    "only the captain or the Hand may use the void privilege, not {seat} (§4.2)"
                )));
            }
            if let Some((s, _)) = self.privilege {
                return Err(invalid(format!(
                    "the captain's side used the void privilege already ({s}, §4.2)"
                )));
            }
            if let Some(held) = spoil
                .candidates
                .iter()
                .find(|c| !hand.of_suit(c.suit_unchecked()).is_empty())
            {
                return Err(invalid(format!(
                    "{seat} could take {held}, of a suit he holds: the privilege is only for a player forced to take a card of a suit he is void in (§4.2, RP-f)"
                )));
            }
        }
        Stubs::take_spoil(
            &spoil,
            &mut self.adj,
            index,
            seat,
            card,
            "royal-porcio.md §4.2, stubs-and-spoils.md §3",
        )?;
        self.play.hand_mut(seat).insert(card);
        if taken.void_privilege || automatic {
            // RP-11: out of his hand for good; naming it later is a card given up (RP-i).
            self.play.give_up(index, seat, card, "spoil")?;
            self.reversed.push(PlayedCard::new(seat, card));
            if taken.void_privilege {
                self.privilege = Some((seat, suit));
                self.adj.events.push(Event::new(
                    "void_privilege",
                    index,
                    seat,
                    vec![card],
                    format!(
                        "{seat} turns {card} round: it and every {} he later takes are out of his hand (§4.2, RP-11)",
                        suit.letter()
                    ),
                ));
            }
        }
        // §4.2: the hand ends when a player has no card in hand after a spoil.
        self.phase = if Table::FOUR.seats().any(|s| self.play.hand(s).is_empty()) {
            self.play.stop();
            Phase::Over
        } else {
            Phase::Play
        };
        Ok(())
    }

    /// Refreshes the details the adjudication and the view show.
    fn show(&mut self) {
        let bid = self.contract.map(|(_, b)| b);
        let captain = self.contract.map(|(c, _)| c);
        // §3.3 case B: the auction was won with both colours still face up.
        let case_b = bid.filter(|_| self.established.is_none());
        self.adj.details = details::Details::of(Details {
            gallery: (0..4)
                .map(|i| GalleryCard {
                    card: self.gallery[i],
                    face_down: self.face_down[i],
                })
                .collect(),
            established: self.established,
            duone_cards: Table::FOUR
                .seats()
                .flat_map(|s| {
                    self.in_front[s.pos()]
                        .iter()
                        .map(move |&c| PlayedCard::new(s, c))
                })
                .collect(),
            bid,
            captain,
            hand: captain.map(partner),
            mode: self.established.or(case_b.map(|b| b.color)),
            special_suit: self.special,
            scored_level: bid.map(|b| {
                if case_b.is_some() {
                    Level::Bronze
                } else {
                    b.level
                }
            }),
            reversed: self.reversed.clone(),
        });
    }
}

/// §4.2, stubs-and-spoils.md §3: follow suit if able (cards turned round are out of the hand).
fn judge(trick: &Trick, hand: CardSet, card: Card) -> Option<crate::engine::Fault> {
    must_follow_suit(Table::FOUR, RULE_PLAY, trick, hand, card)
}

impl Hand {
    fn out_of_phase(&self, index: usize, action: &Action<Verb>, expected: &str) -> RecordError {
        RecordError::out_of_phase(index, action, self.due().unwrap_or(action.seat), expected)
    }

    /// What the phase awaits, in words, for a refusal.
    fn expected(&self) -> String {
        let due = self.due().map_or_else(String::new, |s| s.to_string());
        match self.phase {
            Phase::Auction => format!("{due} calls: pass or bid (§3.1)"),
            Phase::DuoneCard(_) => format!("{due} plays his duone card (§3.2)"),
            Phase::DuoneReply(_) => format!("{due} answers the duone: a card or 'yours' (§3.2)"),
            Phase::TurnDown(_) => {
                format!("{due} turns a gallery card of the other colour down (§3.2)")
            }
            Phase::SpecialSuit => format!("{due}, the captain, names the special suit (§4.1)"),
            Phase::Give(k) => format!("{due}, the captain, passes {k} cards to the Hand (§4.1)"),
            Phase::Return(k) => format!("{due}, the Hand, returns {k} cards to the gallery (§4.1)"),
            Phase::Play => format!("a card is due to trick {}", self.play.trick.number),
            Phase::Spoil(s) => format!("{due} takes the spoil of trick {}", s.report + 1),
            Phase::Over => "the hand is over".into(),
        }
    }
}

impl HandState<Verb> for Hand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        if let Phase::Over = self.phase {
            return Err(RecordError::after_end(
                index,
                action,
                match self.adj.outcome {
                    Outcome::Void => "the cards were thrown in",
                    _ => "a player was left without a card after the last spoil (§4.2)",
                },
            ));
        }
        // README C12: the seat is checked before the verb (a correct is judged by C3 in play).
        let in_play = matches!(self.phase, Phase::Play);
        if let Some(due) = self.due()
            && seat != due
            && !(in_play && matches!(action.kind, Verb::Correct(_)))
        {
            return Err(self.out_of_phase(index, action, &self.expected()));
        }
        match (self.phase, &action.kind) {
            (Phase::Auction, Verb::Pass(_) | Verb::Bid(_)) => return self.call(index, action),
            (Phase::DuoneCard(d), &Verb::DuoneCard(card)) => {
                self.play.give_up(index, seat, card, "duone_card")?;
                self.in_front[seat.pos()].push(card);
                self.phase = Phase::DuoneReply(Duone {
                    card: Some(card),
                    ..d
                });
            }
            (Phase::DuoneReply(d), Verb::DuoneReply(_) | Verb::Yours(_)) => {
                let reply = match action.kind {
                    Verb::DuoneReply(card) => Some(card),
                    _ => None,
                };
                let blocked = self.reply(index, d, reply)?;
                self.phase = if blocked {
                    Phase::Auction
                } else {
                    Phase::TurnDown(d)
                };
            }
            (Phase::TurnDown(d), &Verb::TurnDown(card)) => {
                let at = (0..4).find(|&i| {
                    self.gallery[i] == card && !self.face_down[i] && colour(card) != d.color
                });
                let Some(i) = at else {
                    let open: Vec<String> = (0..4)
                        .filter(|&i| !self.face_down[i] && colour(self.gallery[i]) != d.color)
                        .map(|i| self.gallery[i].to_string())
                        .collect();
                    return Err(RecordError::on(
                        "invalid_turn_down",
                        index,
                        action,
                        format!(
                            "{seat} turns down a face-up gallery card of the colour opposite to his bid: {}, not {card} (§3.2, RP-5)",
                            open.join(" or ")
                        ),
                    ));
                };
                self.face_down[i] = true;
                self.establish_if_one_colour(Some(index));
                self.phase = Phase::Auction;
            }
            (Phase::SpecialSuit, &Verb::SpecialSuit(suit)) => {
                self.special_suit(index, action, suit)?
            }
            (Phase::Give(k), Verb::ExchangeGive(cards)) => {
                self.exchange(index, action, &cards.0, k, "exchange_give")?;
                let hand = partner(seat);
                for &card in &cards.0 {
                    self.play.hand_mut(hand).insert(card);
                }
                self.phase = Phase::Return(k);
            }
            (Phase::Return(k), Verb::ExchangeReturn(cards)) => {
                self.exchange(index, action, &cards.0, k, "exchange_return")?;
                self.start_play(seat);
            }
            (Phase::Play, &Verb::Play(card)) => {
                self.play.play_judged(index, seat, card, judge)?;
                if self.play.is_complete() {
                    let spoil = self.stubs.close_trick(&mut self.play, &mut self.adj);
                    self.phase = Phase::Spoil(spoil);
                }
                return Ok(());
            }
            (Phase::Play, &Verb::Correct(card)) => {
                return self.play.correct(index, seat, card, judge);
            }
            (Phase::Spoil(spoil), &Verb::Spoil(taken)) => {
                self.spoil(index, action, spoil, taken)?
            }
            (Phase::Spoil(spoil), Verb::Correct(_)) => {
                return Err(RecordError::on(
                    "invalid_correct",
                    index,
                    action,
                    format!(
                        "trick {} is already complete: a revoke can only be corrected before that",
                        spoil.report + 1
                    ),
                ));
            }
            // README C11: no card has been played, so no seat may correct.
            (_, Verb::Correct(_)) if self.adj.tricks.is_empty() && self.play.trick.is_empty() => {
                return Err(RecordError::correct_before_play(index, action));
            }
            _ => return Err(self.out_of_phase(index, action, &self.expected())),
        }
        self.show();
        Ok(())
    }

    fn view(&self) -> TableView {
        let phase = match self.phase {
            Phase::Auction => "auction",
            Phase::DuoneCard(_) | Phase::DuoneReply(_) | Phase::TurnDown(_) => "duone",
            Phase::SpecialSuit => "special_suit",
            Phase::Give(_) | Phase::Return(_) => "exchange",
            Phase::Play => "play",
            Phase::Spoil(_) => "spoil",
            Phase::Over => "over",
        };
        let mut view = TableView::new(
            phase,
            self.due().into_iter().collect(),
            &self.play,
            &self.adj.match_after,
        );
        view.trump = self.adj.trump;
        view.details = self.adj.details.clone();
        view.tally = self.adj.tally.clone();
        view.irregularities = self.adj.irregularities.clone();
        if let Phase::Spoil(_) = self.phase {
            let locus = self.locus();
            view.trick = locus.trick.plays().to_vec();
            view.trick_number = locus.trick_number;
        }
        view
    }

    /// While the spoil is taken, the table shows the trick it follows.
    fn locus(&self) -> Locus {
        let locus = Locus::of_play(&self.play, self.due().is_none());
        match self.phase {
            Phase::Spoil(spoil) => Locus {
                trick_number: Some(spoil.report as u8 + 1),
                trick: self.adj.tricks[spoil.report].plays,
                ..locus
            },
            _ => locus,
        }
    }

    fn candidates(&self) -> Vec<Action<Verb>> {
        let Some(seat) = self.due() else {
            return Vec::new();
        };
        let action = |kind| Action { seat, kind };
        let hand = self.play.hand(seat);
        match self.phase {
            Phase::Auction => self.auction.candidates(),
            Phase::DuoneCard(_) => hand.iter().map(|c| action(Verb::DuoneCard(c))).collect(),
            Phase::DuoneReply(_) => hand
                .iter()
                .map(|c| action(Verb::DuoneReply(c)))
                .chain([action(Verb::Yours(Yes))])
                .collect(),
            Phase::TurnDown(_) => self
                .gallery
                .iter()
                .map(|&c| action(Verb::TurnDown(c)))
                .collect(),
            Phase::SpecialSuit => Suit::ALL
                .iter()
                .map(|&s| action(Verb::SpecialSuit(s)))
                .collect(),
            Phase::Give(k) | Phase::Return(k) => {
                let cards: Vec<Card> = hand.iter().collect();
                crate::cards::choices(&cards, k..=k)
                    .into_iter()
                    .map(|c| {
                        action(match self.phase {
                            Phase::Give(_) => Verb::ExchangeGive(Cards(c)),
                            _ => Verb::ExchangeReturn(Cards(c)),
                        })
                    })
                    .collect()
            }
            Phase::Play => self.play.candidates(Verb::Play, Verb::Correct),
            Phase::Spoil(spoil) => self.adj.tricks[spoil.report]
                .plays
                .plays()
                .iter()
                .flat_map(|p| {
                    [false, true].map(|void_privilege| {
                        action(Verb::Spoil(SpoilTaken {
                            card: p.card,
                            void_privilege,
                        }))
                    })
                })
                .collect(),
            Phase::Over => Vec::new(),
        }
    }

    fn faulted(&self, index: usize) -> bool {
        self.adj.faulted(index) || self.play.faulted(index)
    }

    fn finish(mut self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        let ending = match self.phase {
            Phase::Over => Ending::Over,
            _ => Ending::Open {
                due: self.due(),
                detail: format!("the record stops while {}", self.expected()),
            },
        };
        if let Phase::Play = self.phase
            && !self.play.trick.is_empty()
        {
            let trick = self.play.trick;
            self.adj.list_unfinished(trick.number, trick.plays());
        }
        self.adj.corrected_revokes = std::mem::take(&mut self.play.corrected);
        let this = &mut *self;
        this.adj.conclude(error, ending, |adj| {
            score(
                adj,
                &mut this.stubs,
                &this.play,
                Scoring {
                    contract: this.contract,
                    case_b: this.established.is_none(),
                    calls: &this.calls,
                    penalties: this.penalties,
                    own_row: this.own_row,
                    game_scope: this.game_scope,
                    same_dealer_on_passes: this.same_dealer_on_passes,
                    incomplete_duones: this.incomplete_duones,
                },
            )
        });
        self.adj
    }
}

/// What the scoring needs beside the stubs and the hands.
struct Scoring<'a> {
    contract: Option<(Seat, Bid)>,
    case_b: bool,
    calls: &'a [(usize, Side)],
    penalties: bool,
    own_row: bool,
    game_scope: bool,
    same_dealer_on_passes: bool,
    incomplete_duones: u32,
}

/// §4.3: the basic score of each side from the stubs, given the captain's side and the initiative.
fn basic(mode: Mode, captains: Side, initiative: i32, won: &PerSide<i32>) -> PerSide<i32> {
    let (own, other) = (won[captains], won[captains.other()]);
    let balance = match mode {
        Mode::Black => own - other,
        Mode::Red => other - own,
    };
    let i = initiative;
    let mut points = PerSide::default();
    if balance >= i {
        points[captains] = balance * (25 - balance) / 2 + i * (i - 1) / 2;
    } else {
        points[captains.other()] = 78 - i * balance + i * (i - 1) / 2;
    }
    points
}

/// §4.4, RP-9: the maximal runs of consecutive ranks (in the mode's order) among `cards` of one
/// suit, and what each scores: 5 a card with K, Q, 8 and 7; 3 a card with K and Q or with 8 and 7.
fn sequences(cards: CardSet, mode: Mode) -> Vec<(Vec<Card>, i32)> {
    let order = mode.order();
    let mut out = Vec::new();
    for suit in Suit::ALL {
        let mut ranks: Vec<Card> = cards.of_suit(suit).iter().collect();
        ranks.sort_by_key(|c| order.strength(c.rank_unchecked()));
        let mut run: Vec<Card> = Vec::new();
        let flush = |run: &mut Vec<Card>, out: &mut Vec<(Vec<Card>, i32)>| {
            let has = |r: Rank| run.iter().any(|c| c.rank_unchecked() == r);
            let len = run.len() as i32;
            let kq = has(Rank::King) && has(Rank::Queen);
            let e7 = has(Rank::Eight) && has(Rank::Seven);
            let points = if kq && e7 {
                5 * len
            } else if kq || e7 {
                3 * len
            } else {
                0
            };
            if points > 0 {
                out.push((std::mem::take(run), points));
            }
            run.clear();
        };
        for c in ranks {
            if let Some(last) = run.last()
                && order.strength(last.rank_unchecked()) + 1 != order.strength(c.rank_unchecked())
            {
                flush(&mut run, &mut out);
            }
            run.push(c);
        }
        flush(&mut run, &mut out);
    }
    out
}

/// §4.4: the picture rank whose four cards, one of each suit, appear as four consecutive cards
/// of `row`.
fn quartets_in_row(row: &[Card]) -> Vec<Rank> {
    [Rank::King, Rank::Queen, Rank::Jack]
        .into_iter()
        .filter(|&r| {
            row.windows(4)
                .any(|w| w.iter().all(|c| c.rank_unchecked() == r))
        })
        .collect()
}

/// Rules on a decided hand: thrown in or redealt (only the auction penalties, RP-a), or played out
/// (§4.3 basic score, §5 revoke transfers, §4.4 bonuses, §5 call penalties), then the game (§4.5).
fn score(adj: &mut Adjudication, stubs: &mut Stubs, play: &TrickPlay, s: Scoring) {
    let dealer = adj.dealer;
    let mut next_dealer = Table::FOUR.left(dealer);
    if adj.outcome == Outcome::Void {
        // RP-2 variant, RP-g: after four passes (as the option says) or a redeal, the same dealer.
        let redeal = s.contract.is_some();
        if redeal || s.same_dealer_on_passes {
            next_dealer = dealer;
        }
    } else {
        let (captain, bid) = s.contract.expect("a played hand has a captain");
        let captains = Table::FOUR.side(captain);
        let mode = stubs.mode;
        let initiative = bid.number as i32;
        let won = stubs.won;
        let points = basic(mode, captains, initiative, &won);
        for side in Side::BOTH {
            let code = if side == captains {
                INITIATIVE_MADE
            } else {
                INITIATIVE_FAILED
            };
            adj.score(side, points[side], ScoreSource::Contract, code, None);
        }
        stubs.apply_revoke_penalties(
            adj,
            "royal-porcio.md §5, stubs-and-spoils.md §5, RP-j",
            |w| basic(mode, captains, initiative, w),
        );
        let balance_made = {
            let p = basic(mode, captains, initiative, &stubs.won);
            p[captains] > 0 || p[captains.other()] == 0
        };
        if let Some(contract) = &mut adj.contract {
            contract.made = Some(balance_made);
        }
        for side in Side::BOTH {
            adj.tally[side].details = details::Details::of(TallyDetails {
                stubs_won: won[side],
                stubs: stubs.won[side],
            });
        }
        // §4.4: bonuses at silver and gold (none in case B, scored as bronze), on the stubs as won
        // (RP-e) in black, the unplayed cards in hand in red.
        let level = if s.case_b { Level::Bronze } else { bid.level };
        if level >= Level::Silver {
            bonuses(adj, play, mode, level, s.own_row);
        }
    }
    for &(at, offenders) in s.calls {
        if s.penalties {
            adj.penalize(at, offenders.other(), CALL_PENALTY);
        }
    }
    adj.hand_winner = None;
    adj.settle();
    let m = &mut adj.match_after;
    m.next_dealer = Some(next_dealer);
    let winner = game_winner(&m.scores);
    let carried = if winner.is_some() && s.game_scope {
        0
    } else {
        s.incomplete_duones
    };
    m.details = details::Details::of(Carried {
        incomplete_duones: carried,
    });
    if let Some(side) = winner {
        m.end_game([side]);
    }
}

/// §4.4: quartets (silver and gold) and sequences (gold) of each player.
fn bonuses(adj: &mut Adjudication, play: &TrickPlay, mode: Mode, level: Level, own_row: bool) {
    let stub_row = |keep: &dyn Fn(Seat) -> bool| -> Vec<Card> {
        adj.tricks
            .iter()
            .filter_map(|t| t.stub)
            .filter(|p| keep(p.seat))
            .map(|p| p.card)
            .collect()
    };
    let mut found: Vec<(Side, &'static str, Option<Card>, i32)> = Vec::new();
    for seat in Table::FOUR.seats() {
        let side = Table::FOUR.side(seat);
        let own: Vec<Card> = stub_row(&|s| s == seat);
        let cards: CardSet = match mode {
            Mode::Black => own.iter().copied().collect(),
            Mode::Red => play.hand(seat),
        };
        let quartets = match mode {
            // RP-8: consecutive in his own row, or (variant) in his side's.
            Mode::Black if own_row => quartets_in_row(&own),
            // RP-8 variant: the side's row, looked at once (for its first seat).
            Mode::Black
                if seat
                    == Table::FOUR
                        .seats()
                        .find(|&s| Table::FOUR.side(s) == side)
                        .expect("a seat") =>
            {
                quartets_in_row(&stub_row(&|s| Table::FOUR.side(s) == side))
            }
            Mode::Black => Vec::new(),
            Mode::Red => [Rank::King, Rank::Queen, Rank::Jack]
                .into_iter()
                .filter(|&r| Suit::ALL.iter().all(|&s| cards.contains(Card::new(r, s))))
                .collect(),
        };
        for rank in quartets {
            found.push((
                side,
                QUARTET,
                Some(Card::new(rank, Suit::Spades)),
                QUARTET_POINTS,
            ));
        }
        if level == Level::Gold {
            for (run, points) in sequences(cards, mode) {
                found.push((side, SEQUENCE, run.first().copied(), points));
            }
        }
    }
    for (side, code, card, points) in found {
        adj.bonus(Bonus {
            code,
            side,
            card,
            points,
            status: BonusStatus::Scored,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::adjudicate;
    use crate::record::HandRecord;
    use serde_json::{Value, json};

    /// N all spades, E all hearts, S all diamonds, W all clubs (A down to 3); the gallery is the
    /// four 2s, one of each suit: every suit counts once, so only silver bids are achievable
    /// (§3.1, §4.1's example), and both colours show, so bids bring duones.
    fn record(actions: Value, before: Value) -> HandRecord {
        let suit = |s: char| -> Vec<String> {
            "AKQJT9876543".chars().map(|r| format!("{r}{s}")).collect()
        };
        serde_json::from_value(json!({
            "game": "royal-porcio",
            "dealer": "N",
            "deal": {"N": suit('S'), "E": suit('H'), "S": suit('D'), "W": suit('C')},
            "face_up": ["2S", "2H", "2D", "2C"],
            "match_state": before,
            "actions": actions,
        }))
        .unwrap()
    }

    fn ruled(actions: Value, before: Value) -> Adjudication {
        adjudicate(&RoyalPorcio, &record(actions, before)).expect("accepted")
    }

    /// §4.3: black, captain's side 8 stubs against 4, initiative 3: B = 4 ≥ 3, so the captain's
    /// side scores 4·21/2 + 3·2/2 = 42 + 3 = 45. Red, the same stubs: B = 4 − 8 = −4 < 3, so the
    /// others score 78 − 3·(−4) + 3 = 93. B = I = 5: 5·20/2 + 5·4/2 = 50 + 10 = 60 = 12·5.
    #[test]
    fn the_basic_score_formulas() {
        let mut won = PerSide::default();
        won[Side::NS] = 8;
        won[Side::EW] = 4;
        let black = basic(Mode::Black, Side::NS, 3, &won);
        assert_eq!((black[Side::NS], black[Side::EW]), (45, 0));
        let red = basic(Mode::Red, Side::NS, 3, &won);
        assert_eq!((red[Side::NS], red[Side::EW]), (0, 93));
        won[Side::NS] = 9;
        won[Side::EW] = 4;
        let even = basic(Mode::Black, Side::NS, 5, &won);
        assert_eq!(even[Side::NS], 60);
    }

    fn cards(list: &[&str]) -> CardSet {
        list.iter().map(|c| c.parse::<Card>().unwrap()).collect()
    }

    /// §4.4, RP-9: maximal runs in the mode's order. Black: A K Q J of spades holds K and Q, not 8
    /// and 7: 3 × 4 = 12; K Q J T 9 8 7 of hearts holds both pairs: 5 × 7 = 35; 5 4 of clubs
    /// holds neither: nothing. Red (A below 2): A 2 3 of diamonds is a run with neither pair; K Q
    /// of clubs: 3 × 2 = 6; A K of spades is no run in red (A is lowest).
    #[test]
    fn sequences_by_the_modes_order() {
        let black = sequences(
            cards(&[
                "AS", "KS", "QS", "JS", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "5C", "4C",
            ]),
            Mode::Black,
        );
        let points: Vec<i32> = black.iter().map(|(_, p)| *p).collect();
        assert_eq!(points, vec![12, 35]);
        let red = sequences(
            cards(&["AD", "2D", "3D", "KC", "QC", "AS", "KS"]),
            Mode::Red,
        );
        let points: Vec<i32> = red.iter().map(|(_, p)| *p).collect();
        assert_eq!(points, vec![6]);
    }

    /// §4.4, RP-8: four equal picture cards as four consecutive stubs of the row.
    #[test]
    fn a_quartet_is_four_consecutive_stubs() {
        let row = |l: &[&str]| -> Vec<Card> { l.iter().map(|c| c.parse().unwrap()).collect() };
        assert_eq!(
            quartets_in_row(&row(&["2C", "KS", "KH", "KD", "KC"])),
            vec![Rank::King]
        );
        assert!(quartets_in_row(&row(&["KS", "KH", "QS", "KD", "KC"])).is_empty());
    }

    /// §5, RP-a, RP-b: N's opening bid of 2 is illegal (the first bid has number 1): a pass, 10
    /// points to E–W. E, S, W pass: four initial passes throw the cards in (§3.1), yet the 10
    /// points count; the next dealer is E (RP-2).
    #[test]
    fn an_illegal_opening_bid_is_a_pass_and_ten_to_the_opponents_even_when_thrown_in() {
        let a = ruled(
            json!([
                {"seat": "N", "bid": {"color": "red", "number": 2, "level": "silver"}},
                {"seat": "E", "pass": true},
                {"seat": "S", "pass": true},
                {"seat": "W", "pass": true},
            ]),
            json!({}),
        );
        assert!(a.record_error.is_none(), "{:?}", a.record_error);
        assert_eq!(a.outcome, Outcome::Void);
        let codes: Vec<_> = a.irregularities.iter().map(|i| i.code).collect();
        assert_eq!(codes, vec!["illegal_bid"]);
        let score = a.hand_score.unwrap();
        assert_eq!((score[Side::NS], score[Side::EW]), (0, 10));
        assert_eq!(a.match_after.next_dealer, Some(Seat::E));
    }

    /// §3.1: a bronze bid needs a suit absent from the gallery; with one 2 of each suit there is
    /// none, so N's 1 black bronze is illegal: a pass and 10 to E–W. E's 1 black silver is legal
    /// and brings a duone.
    #[test]
    fn an_unachievable_level_is_an_illegal_bid() {
        let a = ruled(
            json!([
                {"seat": "N", "bid": {"color": "black", "number": 1, "level": "bronze"}},
                {"seat": "E", "bid": {"color": "black", "number": 1, "level": "silver"}},
                {"seat": "E", "duone_card": "AH"},
            ]),
            json!({}),
        );
        let codes: Vec<_> = a.irregularities.iter().map(|i| i.code).collect();
        assert_eq!(codes, vec!["illegal_bid"]);
        // The record stops with S, E's left-hand opponent, due to answer the black duone.
        let e = a.record_error.unwrap();
        assert_eq!((e.code, e.seat), ("incomplete_hand", Some(Seat::S)));
    }

    /// §3.2, §3.3, RP-6: N bids 1 black silver; his duone card AS goes to his left; E, void in
    /// spades, says "yours", so N turns the red 2H down. 2S 2D 2C still show both colours when
    /// E, S and W pass: the auction ends with the duones incomplete, the first time this game, so
    /// the same dealer redeals and the count is 1.
    #[test]
    fn the_first_incomplete_duone_is_redealt_by_the_same_dealer() {
        let actions = json!([
            {"seat": "N", "bid": {"color": "black", "number": 1, "level": "silver"}},
            {"seat": "N", "duone_card": "AS"},
            {"seat": "E", "yours": true},
            {"seat": "N", "turn_down": "2H"},
            {"seat": "E", "pass": true},
            {"seat": "S", "pass": true},
            {"seat": "W", "pass": true},
        ]);
        let a = ruled(actions.clone(), json!({}));
        assert!(a.record_error.is_none(), "{:?}", a.record_error);
        assert_eq!(a.outcome, Outcome::Void);
        assert_eq!(a.match_after.next_dealer, Some(Seat::N));
        assert_eq!(
            serde_json::to_value(&a.match_after.details).unwrap()["incomplete_duones"],
            1
        );
        // §3.3 later occurrences, case B: black, no special suit, the Hand S leads.
        let b = ruled(actions, json!({"incomplete_duones": 1}));
        let e = b.record_error.unwrap();
        assert_eq!((e.code, e.seat), ("incomplete_hand", Some(Seat::S)));
        let details = serde_json::to_value(&b.details).unwrap();
        assert_eq!(details["mode"], "black");
        assert_eq!(details["special_suit"], Value::Null);
        assert_eq!(details["scored_level"], "bronze");
    }

    /// §3.2: after N's pass, E bids 1 red silver; his duone card 3H goes to his right, to N, who
    /// holds no heart: N's AS, of another suit, does not block, so E turns a black gallery card
    /// down (2S). No irregularity; S calls next.
    #[test]
    fn a_void_responder_never_blocks() {
        let a = ruled(
            json!([
                {"seat": "N", "pass": true},
                {"seat": "E", "bid": {"color": "red", "number": 1, "level": "silver"}},
                {"seat": "E", "duone_card": "3H"},
                {"seat": "N", "duone_reply": "AS"},
                {"seat": "E", "turn_down": "2S"},
            ]),
            json!({}),
        );
        assert!(a.irregularities.is_empty());
        let e = a.record_error.unwrap();
        // The next call is S's.
        assert_eq!((e.code, e.seat), ("incomplete_hand", Some(Seat::S)));
    }
}
