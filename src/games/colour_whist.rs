//! Colour Whist (`docs/rules/colour-whist.md`): Belgian bidding whist, four players each for
//! himself with partnerships of one deal. Every deal each player stakes to a pool; an auction of
//! proposal and acceptance, Hole (three or four aces), solos, misères, piccolos, abundance and slam
//! fixes the contract; a successful soloist (or pair) takes the pool and is paid a fixed amount by
//! each opponent (one opponent each, for a pair), a failing one doubles the pool and pays them.
//!
//! The auction is the game's own, not the engine's `Auction`: a passed seat may still accept a
//! proposal, a proposal followed by three passes returns to its proposer for a pass or a Solo, two
//! seats may share a petite misère or a piccolo, Hole ends the auction with a forced reply by
//! another seat, and an illegal call is fined and made again. None of this is a one-high-bidder
//! ladder with final passes, and no other game shares it.

use crate::cards::{Card, CardSet, Rank, Suit, packs};
use crate::details;
use crate::engine::deal::{HandSize, Setup};
use crate::engine::deals::AgreedDeals;
use crate::engine::{
    Adjudication, Called, Decides, Effect, Ending, Established, Event, Fault, FieldError,
    FirstDecides, GameInfo, HandState, Irregularity, Locus, MatchState, OptionKind, OptionSpec,
    Options, Outcome, PerSide, PlayedCard, RankOrder, RecordError, Rotation, Rules, ScoreSource,
    Seat, Table, TableView, Trick, TrickPlay, TrickReport, deal, must_follow_suit,
};
use crate::record::{Action, HandRecord, Placeholder, Yes};
use serde::{Deserialize, Serialize};
use std::fmt;
use utoipa::ToSchema;

pub struct ColourWhist;

/// §1: four players, each for himself; the contracting seat or pair and the others are the camps.
const TABLE: Table = Table::solo(4);
const HAND: usize = 13;
const TRICKS: usize = 13;
/// §4: the rule for every trick.
const RULE_PLAY: &str = "colour-whist.md §4";
/// §5 DEFAULT: an illegal call costs its maker this much to each other player.
const FINE: i32 = 4;

crate::verbs! {
    /// What a record of Colour Whist can say.
    pub enum Verb in "Colour Whist" {
        Check(Yes) = "check": "Eldest's first call only, \"J'attends\" (value `true`): he steps out of the bidding but may still accept a proposal (§3.1, CW-a).",
        Pass(Yes) = "pass": "A pass (value `true`); at a passed seat's turn it declines the proposal standing, at the proposer's turn after three passes it throws the deal in (§3.1).",
        Propose(Called) = "propose": "A proposal in a suit (S, C, D or H): eight tricks with a partner who accepts (§3).",
        Accept(Accept) = "accept": "Accepts the proposal standing, unaccepted and not overcalled; a seat that passed may too (§3.1, CW-a).",
        Hole(Yes) = "hole": "Hole (value `true`), by a player holding three or four aces over at most a proposal: the auction ends at once (§3.2).",
        Bid(Bid) = "bid": "A solo contract: `solo`, `seven`, `eight` or `slam` with a `suit`; `petite_misere`, `piccolissimo`, `piccolo`, `abundance` or `grande_misere` without (§3).",
        HoleReply(HoleReply) = "hole_reply": "The forced reply to Hole by the holder of the fourth ace (naming trump), or of the highest heart the four-ace holder lacks (trump hearts) (§3.2).",
        Open(bool) = "open": "Abundance or slam: whether the soloist plays with his hand exposed before the first trick (§4).",
        Discard(Card) = "discard": "Petite misère: each player's one card put face down before the twelve tricks, in any order (§3, CW-e).",
        Play(Card) = "play": "A card played to the current trick.",
        Correct(Card) = "correct": "Replaces the seat's card in the current, incomplete trick (a revoke correction).",
    }
}

/// The value of `accept`: the proposer accepted, or none (the current proposal).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = ColourWhistAccept)]
pub struct Accept {
    /// The proposer whose proposal is accepted; left out, the proposal standing (CW-g).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proposer: Option<Seat>,
}

impl Placeholder for Accept {
    const PLACEHOLDER: &'static str = "{\"proposer\": \"<seat>\"}";
}

/// The value of `bid`: a contract and, for the suit solos, its trump suit. Read as text, so a
/// malformed call is the record error `unexpected_action` (CW-g), not a refusal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = ColourWhistBid)]
pub struct Bid {
    /// `solo`, `petite_misere`, `seven`, `piccolissimo`, `eight`, `piccolo`, `abundance`,
    /// `grande_misere` or `slam`.
    pub contract: String,
    /// The trump suit of `solo`, `seven`, `eight` and `slam` (S, C, D or H); none for the others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suit: Option<Called>,
}

impl Placeholder for Bid {
    const PLACEHOLDER: &'static str = "{\"contract\": \"<contract>\", \"suit\": \"<suit>\"}";
}

/// The value of `hole_reply`: the trump the partner names (three aces), or hearts or nothing
/// (four aces).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = ColourWhistHoleReply)]
pub struct HoleReply {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trump: Option<Called>,
}

impl Placeholder for HoleReply {
    const PLACEHOLDER: &'static str = "{\"trump\": \"<suit>\"}";
}

/// §3: the contracts, lowest to highest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = ColourWhistContract)]
pub enum Contract {
    Proposal,
    Hole,
    Solo,
    PetiteMisere,
    Seven,
    Piccolissimo,
    Eight,
    Piccolo,
    Abundance,
    GrandeMisere,
    Slam,
}

impl Contract {
    /// The contracts a `bid` names (proposal and hole have verbs of their own).
    const BIDS: [Contract; 9] = [
        Contract::Solo,
        Contract::PetiteMisere,
        Contract::Seven,
        Contract::Piccolissimo,
        Contract::Eight,
        Contract::Piccolo,
        Contract::Abundance,
        Contract::GrandeMisere,
        Contract::Slam,
    ];

    fn name(self) -> &'static str {
        match self {
            Contract::Proposal => "proposal",
            Contract::Hole => "hole",
            Contract::Solo => "solo",
            Contract::PetiteMisere => "petite_misere",
            Contract::Seven => "seven",
            Contract::Piccolissimo => "piccolissimo",
            Contract::Eight => "eight",
            Contract::Piccolo => "piccolo",
            Contract::Abundance => "abundance",
            Contract::GrandeMisere => "grande_misere",
            Contract::Slam => "slam",
        }
    }

    /// §3: proposal, hole (its trump named in the reply), the suit solos and slam have a trump.
    fn has_suit(self) -> bool {
        matches!(
            self,
            Contract::Proposal
                | Contract::Solo
                | Contract::Seven
                | Contract::Eight
                | Contract::Slam
        )
    }

    /// §3.1, CW-5: two players may share a petite misère or a piccolo.
    fn pairs(self) -> bool {
        matches!(self, Contract::PetiteMisere | Contract::Piccolo)
    }

    /// The tricks a positive contract needs (the pair's together for proposal and hole).
    fn needs(self) -> Option<u32> {
        match self {
            Contract::Proposal | Contract::Hole | Contract::Eight => Some(8),
            Contract::Solo => Some(6),
            Contract::Seven => Some(7),
            Contract::Abundance => Some(9),
            Contract::Slam => Some(13),
            _ => None,
        }
    }

    /// §4 table: the amount per opponent, and the rate per overtrick (CW-f: proposal, hole and
    /// the suit solos only).
    fn amount(self, rules: &Variants, open: bool) -> (i32, i32) {
        match self {
            Contract::Proposal => (4, 1),
            Contract::Hole => (rules.hole_base, 1),
            Contract::Solo => (8, 2),
            Contract::PetiteMisere => (10, 0),
            Contract::Seven => (12, 3),
            Contract::Piccolissimo => (14, 0),
            Contract::Eight => (16, 4),
            Contract::Piccolo => (18, 0),
            Contract::Abundance => (if open { 44 } else { 22 }, 0),
            Contract::GrandeMisere => (28, 0),
            Contract::Slam => (if open { 200 } else { 100 }, 0),
        }
    }

    /// §4: the soloist leads in abundance and slam.
    fn soloist_leads(self) -> bool {
        matches!(self, Contract::Abundance | Contract::Slam)
    }
}

impl fmt::Display for Contract {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.name().replace('_', " "))
    }
}

/// A call's place in the order of §3.1: the list, then the suit (♠ < ♣ < ♦ < ♥, CW-2).
fn height(contract: Contract, suit: Option<Suit>) -> (Contract, u8) {
    (contract, suit.map_or(0, Suit::whist_rank))
}

fn suit_name(suit: Suit) -> &'static str {
    match suit {
        Suit::Spades => "spades",
        Suit::Hearts => "hearts",
        Suit::Diamonds => "diamonds",
        Suit::Clubs => "clubs",
    }
}

static OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "stake",
        kind: OptionKind::Count {
            min: 1,
            max: 1_000,
            default: 1,
        },
        description: "Units each player stakes to the pool at the start of every deal, redeals \
                      after an all-pass included.",
        rule: "colour-whist.md §6 CW-8, CW-d",
    },
    OptionSpec {
        name: "deals",
        kind: OptionKind::Count {
            min: 0,
            max: 10_000,
            default: 16,
        },
        description: "The agreed number of deals (a multiple of 4 by custom); a passed-out deal \
                      does not count. When they are done the highest net total wins (none on a \
                      tie for highest) and the pool left is not shared. 0: not agreed, the match \
                      goes on.",
        rule: "colour-whist.md §1, CW-d, CW-i",
    },
    OptionSpec {
        name: "hole_base",
        kind: OptionKind::Choice {
            values: &["4", "8"],
            default: "4",
        },
        description: "The base pay-off of Hole per opponent: 4 as a Proposal, or 8 (the Belgian \
                      \"double\" custom); +1 per overtrick either way.",
        rule: "colour-whist.md §6 CW-1",
    },
    OptionSpec {
        name: "hole_compulsory",
        kind: OptionKind::Flag { default: false },
        description: "A player holding three or four aces must bid Hole whenever it is open to \
                      him: a lower call (check, pass, proposal, acceptance) is `hole_not_declared`, \
                      the deal is annulled and the same dealer deals again, the stakes staying in \
                      the pool. Default: Hole is optional.",
        rule: "colour-whist.md §6 CW-4",
    },
    OptionSpec {
        name: "raise_to_any_higher_bid",
        kind: OptionKind::Flag { default: false },
        description: "A proposer whose proposal was followed by three passes may raise to any \
                      solo contract (a `bid`), not only a Solo (six). Default: a Solo in any suit.",
        rule: "colour-whist.md §6 CW-9",
    },
    OptionSpec {
        name: "revoke_penalty",
        kind: OptionKind::Choice {
            values: &["default", "none"],
            default: "default",
        },
        description: "`default`: an established revoke decides the hand at the end of its trick: \
                      by the contracting side the contract fails, by an opponent it is deemed made \
                      exactly (base amount, no overtricks); `none`: revokes are reported only and \
                      the hand is played out.",
        rule: "colour-whist.md §5, CW-f, CW-h",
    },
];

/// Score codes (§4): each player's stake, the pool taken or doubled, the pay-offs.
const STAKE: &str = "stake";
const POOL_TAKEN: &str = "pool_taken";
const POOL_DOUBLED: &str = "pool_doubled";
const MADE: &str = "contract_made";
const OVERTRICKS: &str = "overtricks";
const FAILED: &str = "contract_failed";

static INFO: GameInfo = GameInfo {
    id: "colour-whist",
    name: "Colour Whist",
    tables: crate::engine::Tables(&[TABLE]),
    deck: "52-card pack, A high; 13 cards each",
    // No target: net units over the agreed number of deals (`deals`).
    game_target: 0,
    options: OPTIONS,
    rules: "docs/rules/colour-whist.md",
    irregularities: &["illegal_bid", "revoke", "hole_not_declared"],
    record_errors: &[
        "out_of_turn",
        "unexpected_action",
        "invalid_trump",
        "card_not_held",
        "card_played_twice",
        "invalid_correct",
        "action_after_end",
        "incomplete_hand",
    ],
    events: &[
        "all_passed",
        "proposal_accepted",
        "hole_partner",
        "hand_exposed",
        "discarded",
    ],
    score_codes: &[STAKE, POOL_TAKEN, POOL_DOUBLED, MADE, OVERTRICKS, FAILED],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    titles: crate::engine::Titles(&[
        (
            "illegal_bid",
            "Illegal call: fined 4 to each other player and called again",
        ),
        (
            "hole_not_declared",
            "Hole not bid with three or four aces: the deal is annulled",
        ),
        ("invalid_trump", "Trump the Hole reply may not name"),
        (
            "all_passed",
            "Every player passed: stakes again and the same dealer redeals",
        ),
        ("proposal_accepted", "Proposal accepted"),
        ("hole_partner", "Hole: the partner replies"),
        ("discarded", "Card discarded face down (petite misère)"),
        (STAKE, "Stake to the pool"),
        (POOL_TAKEN, "Pool taken"),
        (POOL_DOUBLED, "Pool doubled by the failing side"),
        (OVERTRICKS, "Overtricks"),
    ]),
};

/// What Colour Whist carries from deal to deal besides each player's net units.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = ColourWhistCarried)]
pub struct Carried {
    /// Units in the pool (§4): the stakes and doublings not yet taken. With the net units it adds
    /// up to nothing.
    #[serde(default)]
    pub pool: u32,
}

/// What a Colour Whist adjudication adds.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = ColourWhistDetails)]
pub struct Details {
    /// The contract the auction fixed (`contract.bid` has it with its suit); `null` before, or
    /// when the deal was thrown in.
    pub contract_kind: Option<Contract>,
    /// Its caller: the soloist, the proposer, the Hole bidder, the first of a misère or piccolo
    /// pair.
    pub caller: Option<Seat>,
    /// The caller's partner: the acceptor, the Hole reply's seat, the second of a pair; `null` for
    /// a player alone.
    pub partner: Option<Seat>,
    /// Abundance and slam: whether played open; `null` for other contracts or until decided.
    pub open: Option<bool>,
    /// The soloist's hand as exposed before the first trick (open abundance or slam); `[]` else.
    pub exposed_hand: Vec<Card>,
    /// Petite misère: each player's discard, in record order.
    pub discards: Vec<PlayedCard>,
    /// Units in the pool before this deal's stakes.
    pub pool_before: u32,
    /// Units in the pool after this deal (stakes, and the pool taken, divided or doubled); with a
    /// record error, as before.
    pub pool: u32,
    /// Tricks beyond the contract that were paid (CW-f: proposal, hole, suit solos).
    pub overtricks: u32,
}

/// How the options shape this hand's rules.
#[derive(Clone, Copy, Debug)]
struct Variants {
    stake: u32,
    deals: AgreedDeals,
    hole_base: i32,
    hole_compulsory: bool,
    raise_any: bool,
    penalties: bool,
}

impl Variants {
    fn of(options: &Options) -> Variants {
        Variants {
            stake: options.count("stake"),
            deals: AgreedDeals(options.count("deals")),
            hole_base: if options.choice("hole_base") == "8" {
                8
            } else {
                4
            },
            hole_compulsory: options.flag("hole_compulsory"),
            raise_any: options.flag("raise_to_any_higher_bid"),
            penalties: options.choice("revoke_penalty") == "default",
        }
    }
}

impl Rules for ColourWhist {
    type Verb = Verb;
    type Details = Details;
    type Carried = Carried;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn table(&self, _: &Options) -> Table {
        TABLE
    }

    fn setup(&self, _: &Options) -> Setup {
        Setup {
            pack: packs::standard52(),
            hand: HandSize::Each(HAND),
            counted_by: None,
            parts: &[],
        }
    }

    /// CW-i: the dealer's left after a played deal, the same dealer after an all-pass.
    fn rotation(&self, _: &Options) -> Rotation {
        Rotation::ByResult(
            "CW-i: the dealer's left after a played deal; the same dealer after an all-pass or an annulled deal",
        )
    }

    fn start(
        &self,
        record: &HandRecord<Verb>,
        options: &Options,
        _: Table,
        before: &MatchState,
    ) -> Result<Box<dyn HandState<Verb>>, Vec<FieldError>> {
        let pack = packs::standard52();
        let dealt = deal::check_cards(record, TABLE, &pack)?;
        deal::check_whole_pack(&dealt, &pack)?;
        let rules = Variants::of(options);
        let carried: Carried = details::read(&before.details, "/match_state")?;
        check_match(&rules, before, &carried)?;
        let dealer = record.dealer;
        let eldest = TABLE.left(dealer);
        let mut adj = Adjudication::new(INFO.id, dealer, before, TRICKS);
        adj.tally = PerSide::over(TABLE.sides());
        Ok(Box::new(Hand {
            rules,
            phase: Phase::Auction,
            auction: Calls {
                turn: eldest,
                passed: [false; 4],
                first: true,
                standing: None,
                passes: 0,
                raise: false,
            },
            declared: None,
            hole_aces: 0,
            open: None,
            exposed: Vec::new(),
            discards: Vec::new(),
            pool_before: carried.pool,
            // §4, CW-d: every player stakes at the start of the deal.
            pool: carried.pool + rules.stake * TABLE.players() as u32,
            overtricks: 0,
            play: TrickPlay::new(TABLE, dealt.hands, eldest),
            decided: FirstDecides::default(),
            annulled: false,
            adj,
        }))
    }
}

/// A match state no deal can produce is refused (README C14): the net units and the pool add up
/// to nothing (every unit staked or paid goes from a player to the pool or to another player), and
/// a match whose agreed deals are done has no next deal (CW-i).
fn check_match(
    rules: &Variants,
    before: &MatchState,
    carried: &Carried,
) -> Result<(), Vec<FieldError>> {
    rules
        .deals
        .check_match(before, 0, i64::from(carried.pool), "§4", "CW-d, CW-i")
}

/// The highest call so far (§3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Standing {
    Proposal {
        proposer: Seat,
        suit: Suit,
        acceptor: Option<Seat>,
    },
    Bid {
        seat: Seat,
        contract: Contract,
        suit: Option<Suit>,
        /// The second seat of a paired petite misère or piccolo (CW-5).
        partner: Option<Seat>,
    },
}

impl Standing {
    fn height(&self) -> (Contract, u8) {
        match *self {
            Standing::Proposal { suit, .. } => height(Contract::Proposal, Some(suit)),
            Standing::Bid { contract, suit, .. } => height(contract, suit),
        }
    }

    /// CW-b: whoever holds the highest call is not asked again.
    fn holds(&self, seat: Seat) -> bool {
        match *self {
            Standing::Proposal {
                proposer, acceptor, ..
            } => seat == proposer || acceptor == Some(seat),
            Standing::Bid {
                seat: s, partner, ..
            } => seat == s || partner == Some(seat),
        }
    }

    fn unaccepted_proposer(&self) -> Option<Seat> {
        match *self {
            Standing::Proposal {
                proposer,
                acceptor: None,
                ..
            } => Some(proposer),
            _ => None,
        }
    }
}

/// The auction's calls so far (§3.1).
#[derive(Clone, Copy, Debug)]
struct Calls {
    /// The seat due to call.
    turn: Seat,
    /// Seats that passed or checked: they may only accept an unaccepted proposal (CW-a).
    passed: [bool; 4],
    /// No call has stood yet: Eldest may check.
    first: bool,
    standing: Option<Standing>,
    /// Passes in a row since an unaccepted proposal.
    passes: u8,
    /// The proposer's pass-or-Solo turn after three passes (§3.1, CW-b).
    raise: bool,
}

/// What kind of turn a seat has in the auction (CW-g).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Turn {
    /// Any call.
    Free,
    /// A passed seat: accept the proposal standing, or pass.
    AcceptOnly,
    /// The unaccepted proposer after three passes: pass, or a Solo.
    Raise,
}

/// How the auction ended.
enum AuctionEnd {
    Contract,
    Hole(Seat),
    AllPassed,
}

impl Calls {
    fn turn_kind(&self) -> Turn {
        if self.raise {
            Turn::Raise
        } else if self.passed[self.turn.pos()] {
            Turn::AcceptOnly
        } else {
            Turn::Free
        }
    }

    /// CW-a, CW-b: a seat is asked when it has not passed and does not hold the highest call, or,
    /// having passed, while an unaccepted proposal by another seat is the highest call.
    fn asked(&self, seat: Seat) -> bool {
        match self.standing {
            Some(s) if s.unaccepted_proposer().is_some() => !s.holds(seat),
            Some(s) => !self.passed[seat.pos()] && !s.holds(seat),
            None => !self.passed[seat.pos()],
        }
    }

    /// After a call that stood by `from`: the next seat to call, or the end of the auction.
    fn advance(&mut self, from: Seat) -> Option<AuctionEnd> {
        if let Some(proposer) = self.standing.and_then(|s| s.unaccepted_proposer())
            && self.passes >= 3
        {
            self.raise = true;
            self.turn = proposer;
            return None;
        }
        let mut s = from;
        for _ in 0..4 {
            s = TABLE.left(s);
            if self.asked(s) {
                self.turn = s;
                return None;
            }
        }
        Some(match self.standing {
            Some(_) => AuctionEnd::Contract,
            None => AuctionEnd::AllPassed,
        })
    }
}

/// The contract the auction fixed.
#[derive(Clone, Copy, Debug)]
struct Declared {
    contract: Contract,
    trump: Option<Suit>,
    caller: Seat,
    partner: Option<Seat>,
}

impl Declared {
    fn seats(&self) -> Vec<Seat> {
        std::iter::once(self.caller).chain(self.partner).collect()
    }

    fn role(&self) -> &'static str {
        if self.partner.is_some() {
            "partners"
        } else {
            "soloist"
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Auction,
    /// §3.2: the Hole reply is due from this seat.
    HoleReply(Seat),
    /// §2 step 3: the soloist of abundance or slam says whether he plays open.
    Open,
    /// §2 step 3: petite misère, every player discards one card.
    Discard,
    Play,
    Over,
}

#[derive(Clone)]
struct Hand {
    rules: Variants,
    phase: Phase,
    auction: Calls,
    declared: Option<Declared>,
    /// The aces of the Hole bidder (3 or 4).
    hole_aces: u32,
    open: Option<bool>,
    exposed: Vec<Card>,
    discards: Vec<PlayedCard>,
    pool_before: u32,
    pool: u32,
    overtricks: u32,
    play: TrickPlay,
    /// §5 DEFAULT, CW-h (README C7, C9): the first established revoke decides the hand; an
    /// annulled deal (CW-4) is decided too.
    decided: FirstDecides,
    /// CW-4 `hole_compulsory`: Hole was not bid, the deal is annulled.
    annulled: bool,
    adj: Adjudication,
}

fn aces(hand: CardSet) -> u32 {
    hand.iter()
        .filter(|c| c.rank_unchecked() == Rank::Ace)
        .count() as u32
}

impl Hand {
    fn judge(&self) -> impl Fn(&Trick, CardSet, Card) -> Option<Fault> + use<> {
        |trick, hand, card| must_follow_suit(TABLE, RULE_PLAY, trick, hand, card)
    }

    fn tricks(&self) -> usize {
        match self.declared {
            Some(d) if d.contract == Contract::PetiteMisere => TRICKS - 1,
            _ => TRICKS,
        }
    }

    /// The one seat due to act (`None` in the discards, where every seat still to discard is).
    fn due(&self) -> Option<Seat> {
        match self.phase {
            Phase::Auction => Some(self.auction.turn),
            Phase::HoleReply(seat) => Some(seat),
            Phase::Open => self.declared.map(|d| d.caller),
            Phase::Discard => None,
            Phase::Play => self.play.to_play(),
            Phase::Over => None,
        }
    }

    fn to_discard(&self) -> Vec<Seat> {
        TABLE
            .seats()
            .filter(|s| !self.discards.iter().any(|d| d.seat == *s))
            .collect()
    }

    fn to_act(&self) -> Vec<Seat> {
        match self.phase {
            Phase::Discard => self.to_discard(),
            _ => self.due().into_iter().collect(),
        }
    }

    fn what_is_due(&self) -> String {
        let seat = self.due().map_or(String::new(), |s| s.to_string());
        match self.phase {
            Phase::Auction => match self.auction.turn_kind() {
                Turn::Free => format!("{seat} calls (§3.1)"),
                Turn::AcceptOnly => format!(
                    "{seat}, who has passed, accepts the proposal standing or passes (§3.1, CW-a)"
                ),
                Turn::Raise => format!(
                    "{seat}, whose proposal three players passed, passes or bids a Solo (§3.1, CW-b)"
                ),
            },
            Phase::HoleReply(_) => format!("{seat} replies to Hole (§3.2)"),
            Phase::Open => format!("{seat}, the soloist, says whether he plays open (§4)"),
            Phase::Discard => format!(
                "{} discard one card each (petite misère, §3)",
                self.to_discard()
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Phase::Play => format!("{seat} plays to trick {}", self.play.trick.number),
            Phase::Over => self.over().into(),
        }
    }

    fn over(&self) -> &'static str {
        if self.annulled {
            "the deal was annulled: Hole was not bid (CW-4)"
        } else if self.adj.outcome == Outcome::Void {
            "every player passed: the deal is thrown in"
        } else if self.decided.decided().is_some() {
            "an established revoke decided the hand"
        } else {
            "every trick has been played"
        }
    }

    /// README C11, C12: an action that does not fit the phase.
    fn out_of_phase(&self, index: usize, action: &Action<Verb>) -> RecordError {
        RecordError::misfit(index, action, self.due(), &self.what_is_due())
    }

    // ---------- the auction ----------

    /// §3.1: one call, judged in the order of CW-g: the seat, the form, the rules.
    fn call(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        let is_call = matches!(
            action.kind,
            Verb::Check(_)
                | Verb::Pass(_)
                | Verb::Propose(_)
                | Verb::Accept(_)
                | Verb::Hole(_)
                | Verb::Bid(_)
        );
        if seat != self.auction.turn || !is_call {
            return Err(self.out_of_phase(index, action));
        }
        // CW-g: a malformed call is a record error.
        let call = read_call(index, action)?;
        if let Err(why) = self.legal(seat, &call) {
            self.fine(index, seat, why);
            return Ok(());
        }
        // CW-4 `hole_compulsory`: a call below Hole by a seat to whom Hole is open.
        if self.rules.hole_compulsory
            && self.auction.turn_kind() == Turn::Free
            && self.hole_open(seat)
            && matches!(
                call,
                Call::Check | Call::Pass | Call::Propose(_) | Call::Accept(_)
            )
        {
            self.annul(index, seat);
            return Ok(());
        }
        let a = &mut self.auction;
        a.first = false;
        let ended = match call {
            Call::Check | Call::Pass if a.raise => {
                // §3.1: the proposer passes after three passes: all pass.
                a.raise = false;
                a.standing = None;
                Some(AuctionEnd::AllPassed)
            }
            Call::Check | Call::Pass => {
                a.passed[seat.pos()] = true;
                if a.standing
                    .is_some_and(|s| s.unaccepted_proposer().is_some())
                {
                    a.passes += 1;
                }
                a.advance(seat)
            }
            Call::Propose(suit) => {
                a.standing = Some(Standing::Proposal {
                    proposer: seat,
                    suit,
                    acceptor: None,
                });
                a.passes = 0;
                a.advance(seat)
            }
            Call::Accept(_) => {
                let Some(Standing::Proposal { proposer, suit, .. }) = a.standing else {
                    unreachable!("judged legal")
                };
                a.standing = Some(Standing::Proposal {
                    proposer,
                    suit,
                    acceptor: Some(seat),
                });
                a.passed[seat.pos()] = false;
                a.passes = 0;
                self.adj.events.push(Event::new(
                    "proposal_accepted",
                    Some(index),
                    seat,
                    Vec::new(),
                    format!(
                        "{seat} accepts {proposer}'s proposal in {}: together they need eight tricks, {proposer} five and {seat} three (§3)",
                        suit_name(suit)
                    ),
                ));
                self.auction.advance(seat)
            }
            Call::Hole => Some(AuctionEnd::Hole(seat)),
            Call::Bid(contract, suit) => {
                a.raise = false;
                a.passes = 0;
                a.standing = Some(match a.standing {
                    // CW-5: the same petite misère or piccolo: the two play together.
                    Some(Standing::Bid {
                        seat: first,
                        contract: c,
                        partner: None,
                        ..
                    }) if c == contract && contract.pairs() => Standing::Bid {
                        seat: first,
                        contract,
                        suit: None,
                        partner: Some(seat),
                    },
                    _ => Standing::Bid {
                        seat,
                        contract,
                        suit,
                        partner: None,
                    },
                });
                a.advance(seat)
            }
        };
        match ended {
            None => {}
            Some(AuctionEnd::AllPassed) => {
                self.phase = Phase::Over;
                self.adj.outcome = Outcome::Void;
                self.adj.events.push(Event::new(
                    "all_passed",
                    Some(index),
                    seat,
                    Vec::new(),
                    "every player passed: the stakes stay in the pool, everyone stakes again and the same dealer redeals (§3.1, CW-d)".into(),
                ));
            }
            Some(AuctionEnd::Hole(bidder)) => {
                let hand = self.play.hand(bidder);
                self.hole_aces = aces(hand);
                let replier = hole_partner(hand, &self.play);
                self.declared = Some(Declared {
                    contract: Contract::Hole,
                    trump: None,
                    caller: bidder,
                    partner: Some(replier),
                });
                self.phase = Phase::HoleReply(replier);
            }
            Some(AuctionEnd::Contract) => {
                let declared = match self.auction.standing.expect("a call stands") {
                    Standing::Proposal {
                        proposer,
                        suit,
                        acceptor,
                    } => Declared {
                        contract: Contract::Proposal,
                        trump: Some(suit),
                        caller: proposer,
                        partner: acceptor,
                    },
                    Standing::Bid {
                        seat,
                        contract,
                        suit,
                        partner,
                    } => Declared {
                        contract,
                        trump: suit,
                        caller: seat,
                        partner,
                    },
                };
                self.declared = Some(declared);
                self.contract_fixed();
            }
        }
        Ok(())
    }

    /// §3.2: Hole is open to `seat` holding three or four aces while the highest call is at most
    /// a proposal (accepted or not, CW-e).
    fn hole_open(&self, seat: Seat) -> bool {
        aces(self.play.hand(seat)) >= 3
            && self
                .auction
                .standing
                .is_none_or(|s| matches!(s, Standing::Proposal { .. }))
    }

    /// Whether `call` is legal for `seat` now (§3, §3.1, CW-a, CW-b, CW-f, CW-g); why not.
    fn legal(&self, seat: Seat, call: &Call) -> Result<(), String> {
        let a = &self.auction;
        let standing = a.standing;
        let turn = a.turn_kind();
        let unaccepted = standing.and_then(|s| s.unaccepted_proposer());
        match (turn, call) {
            (_, Call::Pass) => Ok(()),
            (Turn::Free, Call::Check) if a.first => Ok(()),
            (_, Call::Check) => Err("only Eldest's first call may be a check (§3.1, CW-g)".into()),
            (Turn::Raise, Call::Bid(Contract::Solo, _)) => Ok(()),
            (Turn::Raise, Call::Bid(..)) if self.rules.raise_any => Ok(()),
            (Turn::Raise, _) => Err(format!(
                "three players passed {seat}'s proposal: he may only pass or bid a Solo{} (§3.1, CW-b, CW-9)",
                if self.rules.raise_any {
                    " or another solo contract"
                } else {
                    ""
                }
            )),
            (_, Call::Accept(named)) => {
                let Some(proposer) = unaccepted else {
                    return Err(match standing {
                        Some(Standing::Proposal { acceptor: Some(a), proposer, .. }) => {
                            format!("{proposer}'s proposal is already accepted by {a} (§3.1)")
                        }
                        Some(_) => "a higher bid stands over any proposal: there is nothing to accept (§3.1)".into(),
                        None => "no proposal has been made: there is nothing to accept (§3.1)".into(),
                    });
                };
                match named {
                    Some(p) if *p != proposer => Err(format!(
                        "{p}'s proposal is not the highest call: only {proposer}'s may be accepted (§3.1, CW-g)"
                    )),
                    _ => Ok(()),
                }
            }
            (Turn::AcceptOnly, _) => Err(format!(
                "{seat} has passed: he may only accept a proposal standing unaccepted, or pass (§3.1, CW-a, CW-g)"
            )),
            (Turn::Free, Call::Hole) => {
                if aces(self.play.hand(seat)) < 3 {
                    Err(format!(
                        "{seat} holds {} ace(s): Hole needs three or four (§3.2)",
                        aces(self.play.hand(seat))
                    ))
                } else if !self.hole_open(seat) {
                    Err("Hole may not be bid over a call higher than a proposal (§3.2)".into())
                } else {
                    Ok(())
                }
            }
            (Turn::Free, Call::Propose(suit)) => {
                self.higher(height(Contract::Proposal, Some(*suit)))
            }
            (Turn::Free, Call::Bid(contract, suit)) => {
                if let Some(Standing::Bid {
                    contract: c,
                    partner,
                    ..
                }) = standing
                    && c == *contract
                    && contract.pairs()
                {
                    return match partner {
                        None => Ok(()),
                        Some(_) => Err(format!(
                            "two players already share this {contract}: a third may not join (CW-f)"
                        )),
                    };
                }
                self.higher(height(*contract, *suit))
            }
        }
    }

    /// §3.1: a bid must be higher than the highest call: higher in the list, or the same
    /// suit-bearing bid in a higher suit.
    fn higher(&self, h: (Contract, u8)) -> Result<(), String> {
        match self.auction.standing {
            Some(s) if h <= s.height() => Err(format!(
                "the call is not higher than the highest so far, {} (§3.1)",
                describe(&s)
            )),
            _ => Ok(()),
        }
    }

    /// §5 DEFAULT, CW-c: an illegal call costs its maker 4 to each other player and is cancelled;
    /// he calls again.
    fn fine(&mut self, index: usize, seat: Seat, why: String) {
        let i = self.adj.irregularities.len();
        self.adj.irregularities.push(Irregularity {
            code: "illegal_bid",
            action_index: Some(index),
            trick: None,
            seat,
            card: None,
            rule: "colour-whist.md §5",
            explanation: format!("{seat}'s call is illegal: {why}"),
            consequence: format!(
                "DEFAULT (text silent): {seat} pays each other player {FINE} units and the call is cancelled; {seat} calls again. The fine stands whatever the deal's result (CW-c, CW-g)"
            ),
            effect: Effect::default(),
        });
        for other in TABLE.seats() {
            let points = if other == seat {
                -FINE * (TABLE.players() as i32 - 1)
            } else {
                FINE
            };
            self.adj.penalize(i, TABLE.side(other), points);
        }
    }

    /// CW-4 `hole_compulsory`: Hole was open to `seat` and he called lower: the deal is annulled.
    fn annul(&mut self, index: usize, seat: Seat) {
        self.adj.irregularities.push(Irregularity {
            code: "hole_not_declared",
            action_index: Some(index),
            trick: None,
            seat,
            card: None,
            rule: "colour-whist.md §6 CW-4",
            explanation: format!(
                "{seat} holds {} aces and Hole was open to him, but he made a lower call",
                aces(self.play.hand(seat))
            ),
            consequence: "the deal is annulled: the stakes stay in the pool, everyone stakes again and the same dealer redeals; the deal does not count (CW-4, CW-d)".into(),
            effect: Effect {
                decides: Some(Decides::Hand),
                ..Effect::default()
            },
        });
        self.decided
            .offence(TABLE.side(seat), index, "hole_not_declared");
        self.annulled = true;
        self.adj.outcome = Outcome::Void;
        self.phase = Phase::Over;
    }

    /// §3.2, CW-e, CW-g: the Hole reply names the trump (three aces) or hearts (four).
    fn hole_reply(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        reply: &HoleReply,
    ) -> Result<(), RecordError> {
        let seat = action.seat;
        let mut declared = self.declared.expect("Hole was bid");
        let named = match &reply.trump {
            None => None,
            Some(c) => Some(c.0.parse::<Suit>().map_err(|e| {
                RecordError::on("invalid_trump", index, action, format!("{e} (§3.2, CW-g)"))
            })?),
        };
        let trump = if self.hole_aces >= 4 {
            match named {
                None | Some(Suit::Hearts) => Suit::Hearts,
                Some(other) => {
                    return Err(RecordError::on(
                        "invalid_trump",
                        index,
                        action,
                        format!(
                            "{} holds four aces: trump is hearts, not {} (§3.2, CW-e, CW-g)",
                            declared.caller,
                            suit_name(other)
                        ),
                    ));
                }
            }
        } else {
            named.ok_or_else(|| {
                RecordError::on(
                    "invalid_trump",
                    index,
                    action,
                    format!(
                        "{seat}, holding the fourth ace, names trump in his reply to Hole (§3.2, CW-g)"
                    ),
                )
            })?
        };
        declared.trump = Some(trump);
        self.declared = Some(declared);
        let caller = declared.caller;
        let why = if self.hole_aces >= 4 {
            "holds the highest heart the four-ace holder lacks"
        } else {
            "holds the fourth ace"
        };
        self.adj.events.push(Event::new(
            "hole_partner",
            Some(index),
            seat,
            Vec::new(),
            format!(
                "{seat} {why} and replies to {caller}'s Hole: trump {}; together they need eight tricks, {caller} five and {seat} three (§3.2)",
                suit_name(trump)
            ),
        ));
        self.contract_fixed();
        Ok(())
    }

    /// The contract is fixed: its camps, its trump, and what comes before the first trick.
    fn contract_fixed(&mut self) {
        let d = self.declared.expect("a contract");
        let mut report = crate::engine::Contract::new(d.caller, TABLE.side(d.caller));
        let mut bid = serde_json::json!({ "contract": d.contract.name() });
        if let Some(trump) = d.trump {
            bid["suit"] = serde_json::json!(trump.letter().to_string());
        }
        if let Some(p) = d.partner {
            bid["partner"] = serde_json::json!(p.to_string());
        }
        report.bid = Some(bid);
        report.target = d.contract.needs().map(|n| n as i32);
        self.adj.contract = Some(report);
        self.adj.trump = d.trump;
        self.adj.set_camps(TABLE, d.role(), &d.seats(), "opponents");
        self.phase = match d.contract {
            Contract::Abundance | Contract::Slam => Phase::Open,
            Contract::PetiteMisere => Phase::Discard,
            _ => Phase::Play,
        };
        if d.contract.soloist_leads() {
            self.play.lead_next(d.caller);
        }
    }

    /// §4: abundance or slam, open or not; an open hand is exposed before the first trick.
    fn decide_open(&mut self, index: usize, seat: Seat, open: bool) {
        self.open = Some(open);
        if open {
            self.exposed = self.play.hand(seat).iter().collect();
            self.adj.events.push(Event::new(
                "hand_exposed",
                Some(index),
                seat,
                self.exposed.clone(),
                format!("{seat} plays open: his hand is exposed before the first trick (§4)"),
            ));
        }
        self.phase = Phase::Play;
    }

    /// §3, CW-e: petite misère, each player's discard face down, in any order.
    fn discard(&mut self, index: usize, seat: Seat, card: Card) -> Result<(), RecordError> {
        self.play.give_up(index, seat, card, "discard")?;
        self.discards.push(PlayedCard::new(seat, card));
        self.adj.events.push(Event::new(
            "discarded",
            Some(index),
            seat,
            vec![card],
            format!("{seat} discards one card face down (petite misère, §3)"),
        ));
        if self.discards.len() == TABLE.players() {
            self.phase = Phase::Play;
        }
        Ok(())
    }

    // ---------- the play ----------

    fn close_trick(&mut self) {
        let trump = self.declared.and_then(|d| d.trump);
        let winner = self
            .play
            .trick
            .trump_or_led_winner(trump, &RankOrder::ACE_HIGH)
            .expect("a complete trick of suited cards");
        let (trick, established) = self.play.close_trick(winner);
        self.adj.tally[TABLE.side(winner)].tricks += 1;
        self.adj.tricks.push(TrickReport::new(trick, winner));
        for e in established {
            self.revoke_established(e);
        }
        if self.decided.decided().is_some() || self.adj.tricks.len() == self.tricks() {
            self.play.stop();
            self.phase = Phase::Over;
        }
    }

    /// §5 DEFAULT, CW-f, CW-h: the first established revoke decides the hand at the end of its
    /// trick: by the contracting side the contract fails, by an opponent it is deemed made.
    fn revoke_established(&mut self, e: Established) {
        let d = self.declared.expect("a contract is played");
        let contracting = d.seats().contains(&e.seat);
        let decides = self.rules.penalties
            && self
                .decided
                .offence(TABLE.side(e.seat), e.action_index, e.fault.code)
                .is_none();
        let consequence = if !self.rules.penalties {
            "reported only: the option revoke_penalty is none, the hand is played out".to_string()
        } else if !decides {
            "no further effect: an earlier revoke already decided the hand (README C7)".to_string()
        } else if contracting {
            format!(
                "DEFAULT (text silent): the {} fails, whatever the tricks: the base amount is paid and the pool doubled; the hand ends at this trick (colour-whist.md §5, CW-f, CW-h)",
                d.contract
            )
        } else {
            format!(
                "DEFAULT (text silent): the {} is deemed made exactly (base amount, no overtricks) and the contracting side takes the pool; the hand ends at this trick (colour-whist.md §5, CW-f, CW-h)",
                d.contract
            )
        };
        let mut irregularity = e.irregularity(consequence);
        if decides {
            irregularity.effect.decides = Some(Decides::Hand);
        }
        self.adj.irregularities.push(irregularity);
    }

    /// Tricks taken by `seat`.
    fn taken(&self, seat: Seat) -> u32 {
        self.adj.tally[TABLE.side(seat)].tricks
    }

    /// §4: whether the contract was made, and its overtricks.
    fn result(&self, d: &Declared) -> (bool, u32) {
        let caller = self.taken(d.caller);
        let partner = d.partner.map(|p| self.taken(p));
        match d.contract {
            Contract::Proposal | Contract::Hole => {
                let partner = partner.expect("a partner");
                let made = caller >= 5 && partner >= 3;
                (made, if made { caller + partner - 8 } else { 0 })
            }
            Contract::Solo | Contract::Seven | Contract::Eight => {
                let needs = d.contract.needs().expect("a positive contract");
                (caller >= needs, caller.saturating_sub(needs))
            }
            Contract::Abundance | Contract::Slam => (
                caller >= d.contract.needs().expect("a positive contract"),
                0,
            ),
            Contract::PetiteMisere | Contract::GrandeMisere => {
                (caller == 0 && partner.is_none_or(|t| t == 0), 0)
            }
            Contract::Piccolissimo => (caller == 2, 0),
            Contract::Piccolo => (caller == 1 && partner.is_none_or(|t| t == 1), 0),
        }
    }

    /// §4, CW-d: settles the deal: the stakes, the pool and the pay-offs; the match.
    fn score(&mut self) {
        let dealer = self.adj.dealer;
        let stake = self.rules.stake as i32;
        for seat in TABLE.seats() {
            self.adj
                .score(TABLE.side(seat), -stake, ScoreSource::Contract, STAKE, None);
        }
        if self.adj.outcome == Outcome::Void {
            // CW-d: no play; the stakes (and any fines) stand and the same dealer redeals; the
            // deal does not count.
            self.adj.settle();
            let m = &mut self.adj.match_after;
            m.next_dealer = Some(dealer);
            m.details = details::Details::of(Carried { pool: self.pool });
            return;
        }
        let d = self.declared.expect("a contract was played");
        let (made, overtricks) = match self.decided.decided() {
            // §5 DEFAULT, CW-f: a revoke by the contracting side fails the contract, by an
            // opponent it is deemed made exactly.
            Some((offenders, _)) => (!d.seats().iter().any(|&s| TABLE.side(s) == offenders), 0),
            None => self.result(&d),
        };
        let (base, rate) = d.contract.amount(&self.rules, self.open == Some(true));
        let pool = self.pool as i32;
        let role = d.role();
        let pay = |adj: &mut Adjudication, points: i32, code: &'static str| {
            if d.partner.is_some() {
                adj.pay_in_pairs(
                    TABLE,
                    "opponents",
                    role,
                    points,
                    ScoreSource::Contract,
                    code,
                );
            } else {
                adj.pay_each_from_each(
                    TABLE,
                    "opponents",
                    role,
                    points,
                    ScoreSource::Contract,
                    code,
                );
            }
        };
        if made {
            // §4: the pool to the soloist, or divided between the pair (the odd unit stays).
            match d.partner {
                None => {
                    self.adj.score(
                        TABLE.side(d.caller),
                        pool,
                        ScoreSource::Contract,
                        POOL_TAKEN,
                        None,
                    );
                    self.pool = 0;
                }
                Some(p) => {
                    for s in [d.caller, p] {
                        self.adj.score(
                            TABLE.side(s),
                            pool / 2,
                            ScoreSource::Contract,
                            POOL_TAKEN,
                            None,
                        );
                    }
                    self.pool = (pool % 2) as u32;
                }
            }
            pay(&mut self.adj, base, MADE);
            self.overtricks = overtricks;
            pay(&mut self.adj, rate * overtricks as i32, OVERTRICKS);
        } else {
            // §4, CW-f: the failing side doubles the pool (a pair half each, the caller the odd
            // unit) and pays the base amount.
            match d.partner {
                None => {
                    self.adj.score(
                        TABLE.side(d.caller),
                        -pool,
                        ScoreSource::Contract,
                        POOL_DOUBLED,
                        None,
                    );
                }
                Some(p) => {
                    let (first, second) = (pool - pool / 2, pool / 2);
                    self.adj.score(
                        TABLE.side(d.caller),
                        -first,
                        ScoreSource::Contract,
                        POOL_DOUBLED,
                        None,
                    );
                    self.adj.score(
                        TABLE.side(p),
                        -second,
                        ScoreSource::Contract,
                        POOL_DOUBLED,
                        None,
                    );
                }
            }
            self.pool *= 2;
            pay(&mut self.adj, -base, FAILED);
        }
        if let Some(c) = &mut self.adj.contract {
            c.made = Some(made);
        }
        self.adj.hand_winner = (made && d.partner.is_none()).then(|| TABLE.side(d.caller));
        self.adj.settle();
        let m = &mut self.adj.match_after;
        m.next_dealer = Some(TABLE.left(dealer));
        m.details = details::Details::of(Carried { pool: self.pool });
        // CW-d, CW-i: the agreed deals done, the highest net total wins; a tie, nobody.
        self.rules.deals.close(m, 0);
    }

    fn details(&self) -> Details {
        Details {
            contract_kind: self.declared.map(|d| d.contract),
            caller: self.declared.map(|d| d.caller),
            partner: self.declared.and_then(|d| d.partner),
            open: self.open,
            exposed_hand: self.exposed.clone(),
            discards: self.discards.clone(),
            pool_before: self.pool_before,
            pool: self.pool,
            overtricks: self.overtricks,
        }
    }

    fn phase_name(&self) -> &'static str {
        match self.phase {
            Phase::Auction => "auction",
            Phase::HoleReply(_) => "hole_reply",
            Phase::Open => "open",
            Phase::Discard => "discard",
            Phase::Play => "play",
            Phase::Over => "over",
        }
    }
}

/// A call as read from the record (CW-g: its form checked).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Call {
    Check,
    Pass,
    Propose(Suit),
    Accept(Option<Seat>),
    Hole,
    Bid(Contract, Option<Suit>),
}

/// CW-g: a malformed call (an unknown contract, a missing suit, a suit on a no-suit contract, a
/// proposal in no suit) is `unexpected_action`.
fn read_call(index: usize, action: &Action<Verb>) -> Result<Call, RecordError> {
    let bad = |detail: String| RecordError::unexpected(index, action, detail);
    Ok(match &action.kind {
        Verb::Check(_) => Call::Check,
        Verb::Pass(_) => Call::Pass,
        Verb::Hole(_) => Call::Hole,
        Verb::Accept(a) => Call::Accept(a.proposer),
        Verb::Propose(suit) => Call::Propose(
            suit.0
                .parse()
                .map_err(|e| bad(format!("{e}: a proposal names its suit (§3, CW-g)")))?,
        ),
        Verb::Bid(bid) => {
            let Some(contract) = Contract::BIDS
                .into_iter()
                .find(|c| c.name() == bid.contract)
            else {
                return Err(bad(format!(
                    "'{}' is not a contract a bid names: one of {} (§3, CW-g)",
                    bid.contract,
                    Contract::BIDS.map(Contract::name).join(", ")
                )));
            };
            let suit =
                match (&bid.suit, contract.has_suit()) {
                    (Some(s), true) => Some(s.0.parse().map_err(|e| {
                        bad(format!("{e}: a {contract} names its trump (§3, CW-g)"))
                    })?),
                    (None, true) => {
                        return Err(bad(format!("a {contract} names its trump suit (§3, CW-g)")));
                    }
                    (Some(_), false) => {
                        return Err(bad(format!(
                            "a {contract} is played at no trump: it names no suit (§3, CW-g)"
                        )));
                    }
                    (None, false) => None,
                };
            Call::Bid(contract, suit)
        }
        _ => unreachable!("only calls are read"),
    })
}

fn describe(s: &Standing) -> String {
    match *s {
        Standing::Proposal {
            proposer,
            suit,
            acceptor,
        } => format!(
            "{proposer}'s proposal in {}{}",
            suit_name(suit),
            acceptor.map_or(String::new(), |a| format!(", accepted by {a}"))
        ),
        Standing::Bid {
            seat,
            contract,
            suit,
            partner,
        } => format!(
            "{seat}'s {contract}{}{}",
            suit.map_or(String::new(), |s| format!(" in {}", suit_name(s))),
            partner.map_or(String::new(), |p| format!(" with {p}"))
        ),
    }
}

/// §3.2, CW-3: the Hole bidder's partner: the holder of the fourth ace, or with four aces the
/// holder of the highest heart the bidder lacks.
fn hole_partner(bidder: CardSet, play: &TrickPlay) -> Seat {
    let wanted = if aces(bidder) >= 4 {
        packs::standard52()
            .cards
            .iter()
            .filter(|c| c.suit() == Some(Suit::Hearts) && !bidder.contains(*c))
            .max_by_key(|c| c.rank_unchecked())
            .expect("four aces and thirteen cards leave a heart out")
    } else {
        Suit::ALL
            .iter()
            .map(|&s| Card::new(Rank::Ace, s))
            .find(|c| !bidder.contains(*c))
            .expect("three aces leave one out")
    };
    TABLE
        .seats()
        .find(|&s| play.hand(s).contains(wanted))
        .expect("every card is dealt")
}

impl HandState<Verb> for Hand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        if self.phase == Phase::Over {
            // README C6, C9, CW-h: after a deciding revoke (or an annulled deal) actions are
            // ignored.
            if let Some(ignored) = self.decided.ignores(index, "colour-whist.md §5, CW-h") {
                self.adj.ignored_actions.push(ignored);
                return Ok(());
            }
            return Err(RecordError::after_end(index, action, self.over()));
        }
        match (self.phase, &action.kind) {
            (Phase::Play, Verb::Correct(card)) => {
                let judge = self.judge();
                return self.play.correct(index, seat, *card, judge);
            }
            // README C11: no card is on the table yet.
            (_, Verb::Correct(_)) => return Err(RecordError::correct_before_play(index, action)),
            (Phase::Auction, _) => return self.call(index, action),
            // CW-g: in the discards, a seat that has discarded has nothing due.
            (Phase::Discard, kind) => {
                if !self.to_discard().contains(&seat) {
                    return Err(RecordError::on(
                        "out_of_turn",
                        index,
                        action,
                        format!("{seat} has already discarded: {}", self.what_is_due()),
                    ));
                }
                return match kind {
                    Verb::Discard(card) => self.discard(index, seat, *card),
                    _ => Err(RecordError::unexpected(index, action, self.what_is_due())),
                };
            }
            _ => {}
        }
        if self.due() != Some(seat) {
            return Err(self.out_of_phase(index, action));
        }
        match (self.phase, &action.kind) {
            (Phase::HoleReply(_), Verb::HoleReply(reply)) => self.hole_reply(index, action, reply),
            (Phase::Open, Verb::Open(open)) => {
                self.decide_open(index, seat, *open);
                Ok(())
            }
            (Phase::Play, Verb::Play(card)) => {
                let judge = self.judge();
                self.play.play_judged(index, seat, *card, judge)?;
                if self.play.is_complete() {
                    self.close_trick();
                }
                Ok(())
            }
            _ => Err(self.out_of_phase(index, action)),
        }
    }

    fn view(&self) -> TableView {
        let mut view = TableView::new(
            self.phase_name(),
            self.to_act(),
            &self.play,
            &self.adj.match_before,
        );
        view.trump = self.adj.trump;
        view.tally = self.adj.tally.clone();
        view.irregularities = self.adj.irregularities.clone();
        view.details = details::Details::of(self.details());
        view
    }

    fn locus(&self) -> Locus {
        Locus::of_play(&self.play, self.to_act().is_empty())
    }

    /// CW-g: an acceptance naming the proposer standing unaccepted is the one offered, `{}`.
    fn offered_as(&self, action: Action<Verb>) -> Action<Verb> {
        match &action.kind {
            Verb::Accept(Accept { proposer: Some(p) })
                if self.phase == Phase::Auction
                    && self.auction.standing.and_then(|s| s.unaccepted_proposer()) == Some(*p) =>
            {
                Action {
                    kind: Verb::Accept(Accept::default()),
                    ..action
                }
            }
            _ => action,
        }
    }

    fn candidates(&self) -> Vec<Action<Verb>> {
        let suits = || Suit::ALL.map(|s| Called(s.letter().to_string()));
        let kinds: Vec<Verb> = match self.phase {
            Phase::Auction => {
                let mut calls = vec![
                    Verb::Check(Yes),
                    Verb::Pass(Yes),
                    Verb::Accept(Accept::default()),
                    Verb::Hole(Yes),
                ];
                calls.extend(suits().map(Verb::Propose));
                for contract in Contract::BIDS {
                    if contract.has_suit() {
                        calls.extend(suits().map(|s| {
                            Verb::Bid(Bid {
                                contract: contract.name().into(),
                                suit: Some(s),
                            })
                        }));
                    } else {
                        calls.push(Verb::Bid(Bid {
                            contract: contract.name().into(),
                            suit: None,
                        }));
                    }
                }
                calls
            }
            Phase::HoleReply(_) => std::iter::once(HoleReply::default())
                .chain(suits().map(|s| HoleReply { trump: Some(s) }))
                .map(Verb::HoleReply)
                .collect(),
            Phase::Open => vec![Verb::Open(false), Verb::Open(true)],
            Phase::Discard => {
                return self
                    .to_discard()
                    .into_iter()
                    .flat_map(|seat| {
                        self.play.hand(seat).iter().map(move |c| Action {
                            seat,
                            kind: Verb::Discard(c),
                        })
                    })
                    .collect();
            }
            Phase::Play => return self.play.candidates(Verb::Play, Verb::Correct),
            Phase::Over => Vec::new(),
        };
        let Some(seat) = self.due() else {
            return Vec::new();
        };
        kinds
            .into_iter()
            .map(|kind| Action { seat, kind })
            .collect()
    }

    fn faulted(&self, index: usize) -> bool {
        self.adj.faulted(index) || self.play.faulted(index)
    }

    fn ignored(&self, index: usize) -> bool {
        self.adj.ignored(index)
    }

    fn finish(mut self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        self.adj.corrected_revokes = std::mem::take(&mut self.play.corrected);
        let ending = match self.phase {
            Phase::Over => Ending::Over,
            // CW-h: every contract is played to its last trick.
            _ => Ending::Open {
                due: self.due(),
                detail: format!(
                    "the record stops before the hand is over ({} of {} tricks played): {}",
                    self.adj.tricks.len(),
                    self.tricks(),
                    self.what_is_due()
                ),
            },
        };
        if self.adj.unscored(error, ending) {
            // README C5: the match, the pool included, stays as it was.
            self.pool = self.pool_before;
        } else {
            self.score();
        }
        self.adj.details = details::Details::of(self.details());
        self.adj
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    /// §3, CW-2: the list first, then the suit ♠ < ♣ < ♦ < ♥.
    #[test]
    fn calls_rank_by_the_list_then_the_suit() {
        let p = |s| height(Contract::Proposal, Some(s));
        assert!(p(Suit::Spades) < p(Suit::Clubs));
        assert!(p(Suit::Diamonds) < p(Suit::Hearts));
        assert!(p(Suit::Hearts) < height(Contract::Hole, None));
        assert!(height(Contract::Solo, Some(Suit::Hearts)) < height(Contract::PetiteMisere, None));
        assert!(height(Contract::GrandeMisere, None) < height(Contract::Slam, Some(Suit::Spades)));
    }

    /// §4 table, CW-1: the pay-offs and their overtrick rates.
    #[test]
    fn the_pay_off_table() {
        let raw = serde_json::from_value(serde_json::json!({})).unwrap();
        let rules = Variants::of(&Options::resolve(OPTIONS, &raw, "/options").unwrap());
        assert_eq!(Contract::Hole.amount(&rules, false), (4, 1));
        assert_eq!(Contract::Eight.amount(&rules, false), (16, 4));
        assert_eq!(Contract::Abundance.amount(&rules, true), (44, 0));
        assert_eq!(Contract::Slam.amount(&rules, false), (100, 0));
    }

    /// §3.2, CW-3: four aces and K♥ ⇒ the holder of Q♥ partners.
    #[test]
    fn the_four_ace_partner_holds_the_highest_heart_lacking() {
        let bidder: CardSet = [
            "AS", "AH", "AD", "AC", "KH", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S",
        ]
        .iter()
        .map(|s| c(s))
        .collect();
        let mut play = TrickPlay::new(
            TABLE,
            [CardSet::default(); crate::engine::MAX_PLAYS],
            Seat::N,
        );
        *play.hand_mut(Seat::N) = bidder;
        play.hand_mut(Seat::S).insert(c("QH"));
        play.hand_mut(Seat::E).insert(c("JH"));
        assert_eq!(hole_partner(bidder, &play), Seat::S);
    }
}
