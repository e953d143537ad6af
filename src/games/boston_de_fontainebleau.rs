//! Boston de Fontainebleau (`docs/rules/boston-de-fontainebleau.md`): four players each for
//! himself, 52 cards A high, 13 each. An auction of contracts named with a suit (the trump of a
//! positive bid; the nominal suit of a misère), ranked by level, then suit (♠ < ♣ < ♦ < ♥), then a
//! misère over the positive bid of its level and suit (BF-4). The soloist plays alone against three,
//! except that in Five to Eight he may call for a supporter. Eldest leads (BF-5). Each opponent pays
//! the soloist (base + over-tricks) × the suit factor, or the soloist pays each of them (§4); a game
//! is 12 deals, passed-out deals included (BO-e).

use crate::cards::{Card, CardSet, Suit, packs};
use crate::details;
use crate::engine::auction::{Auction, Conduct, End, Ladder, NoBid, Rounds};
use crate::engine::deal::{HandSize, Setup};
use crate::engine::deals::AgreedDeals;
use crate::engine::{
    Adjudication, Contract, Decides, Ending, Established, Event, Fault, FieldError, FirstDecides,
    GameInfo, HandState, Locus, MatchState, OptionKind, OptionSpec, Options, Outcome, PerSide,
    RankOrder, RecordError, Rules, ScoreSource, Seat, Table, TableView, Trick, TrickPlay,
    TrickReport, deal, must_follow_suit,
};
use crate::record::{Action, HandRecord, Placeholder, Yes};
use serde::{Deserialize, Serialize};
use std::fmt;
use utoipa::ToSchema;

pub struct BostonDeFontainebleau;

/// §1: four players, each his own side; the soloist (with any supporter) and the opponents are
/// the hand's camps.
const TABLE: Table = Table::solo(4);
const HAND: usize = 13;
const TRICKS: usize = 13;
/// BO-c: petite misère plays twelve tricks.
const PETITE_TRICKS: usize = 12;
/// BO-b: the four-ace misère's allowance holds in tricks 1–10.
const ALLOWANCE_TRICKS: u8 = 10;
/// BF-6 `pool` (Foster): each dealer adds five to the pool.
const POOL_ANTE: i32 = 5;
/// A bound on a carried pool (README C14), far beyond any twelve deals (2,400 a hand at most).
const POOL_LIMIT: i32 = 1_000_000_000;
const RULE_PLAY: &str = "boston-de-fontainebleau.md §3.3";

/// §3: every contract of the schedule, positive and negative.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BostonContract {
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Eleven,
    Twelve,
    Boston,
    BostonOuvert,
    PetiteMisere,
    Piccolissimo,
    GrandeMisere,
    FourAceMisere,
    PetiteMisereOuverte,
    GrandeMisereOuverte,
}

impl BostonContract {
    const ALL: [BostonContract; 16] = [
        BostonContract::Five,
        BostonContract::Six,
        BostonContract::Seven,
        BostonContract::Eight,
        BostonContract::Nine,
        BostonContract::Ten,
        BostonContract::Eleven,
        BostonContract::Twelve,
        BostonContract::Boston,
        BostonContract::BostonOuvert,
        BostonContract::PetiteMisere,
        BostonContract::Piccolissimo,
        BostonContract::GrandeMisere,
        BostonContract::FourAceMisere,
        BostonContract::PetiteMisereOuverte,
        BostonContract::GrandeMisereOuverte,
    ];

    /// §3, BF-2: the level, which pairs each misère with the positive bid printed beside it.
    fn level(self) -> u8 {
        use BostonContract::*;
        match self {
            Five => 1,
            Six | PetiteMisere => 2,
            Seven | Piccolissimo => 3,
            Eight | GrandeMisere => 4,
            Nine | FourAceMisere => 5,
            Ten | PetiteMisereOuverte => 6,
            Eleven | GrandeMisereOuverte => 7,
            Twelve => 8,
            Boston => 9,
            BostonOuvert => 10,
        }
    }

    /// §3: the base value.
    fn base(self) -> i32 {
        use BostonContract::*;
        match self {
            Five => 4,
            Six => 6,
            Seven => 9,
            Eight => 12,
            Nine => 15,
            Ten => 18,
            Eleven => 21,
            Twelve => 24,
            Boston => 100,
            BostonOuvert => 200,
            PetiteMisere => 16,
            Piccolissimo => 24,
            GrandeMisere => 32,
            FourAceMisere => 40,
            PetiteMisereOuverte => 48,
            GrandeMisereOuverte => 56,
        }
    }

    /// §3: the tricks a positive bid undertakes; `None` for the negative bids.
    fn tricks(self) -> Option<u32> {
        match self.level() {
            l if self.negative() || l > 10 => None,
            9 | 10 => Some(13),
            l => Some(l as u32 + 4),
        }
    }

    /// §3: the value of each over- or under-trick: Five to Twelve only.
    fn per_trick(self) -> i32 {
        match self.tricks() {
            Some(n) if n <= 12 => n as i32 - 4,
            _ => 0,
        }
    }

    /// §3, §3.2: the supporter's minimum, in the bids that may call for one (Five to Eight).
    fn supporter_minimum(self) -> Option<u32> {
        match self {
            BostonContract::Five => Some(3),
            BostonContract::Six | BostonContract::Seven | BostonContract::Eight => Some(4),
            _ => None,
        }
    }

    /// §3: a negative bid (the misères and piccolissimo), played without trumps.
    fn negative(self) -> bool {
        use BostonContract::*;
        matches!(
            self,
            PetiteMisere
                | Piccolissimo
                | GrandeMisere
                | FourAceMisere
                | PetiteMisereOuverte
                | GrandeMisereOuverte
        )
    }

    /// §3.3: the soloist's hand is exposed before the opening lead.
    fn ouvert(self) -> bool {
        use BostonContract::*;
        matches!(
            self,
            BostonOuvert | PetiteMisereOuverte | GrandeMisereOuverte
        )
    }

    /// §3.3, BO-c: the soloist discards one card and twelve tricks are played.
    fn petite(self) -> bool {
        matches!(
            self,
            BostonContract::PetiteMisere | BostonContract::PetiteMisereOuverte
        )
    }

    /// §3: the tricks the soloist must win to make a negative bid (piccolissimo: exactly one).
    fn misere_tricks(self) -> u32 {
        u32::from(self == BostonContract::Piccolissimo)
    }

    /// §5 DEFAULT, BO-f: a bid whose declarer's revoke leaves the hand to be played out (the real
    /// shortfall counts): Five to Twelve.
    fn counts_shortfall(self) -> bool {
        self.per_trick() > 0
    }

    fn name(self) -> &'static str {
        use BostonContract::*;
        match self {
            Five => "five",
            Six => "six",
            Seven => "seven",
            Eight => "eight",
            Nine => "nine",
            Ten => "ten",
            Eleven => "eleven",
            Twelve => "twelve",
            Boston => "boston",
            BostonOuvert => "boston ouvert",
            PetiteMisere => "petite misère",
            Piccolissimo => "piccolissimo",
            GrandeMisere => "grande misère",
            FourAceMisere => "four-ace misère",
            PetiteMisereOuverte => "petite misère ouverte",
            GrandeMisereOuverte => "grande misère ouverte",
        }
    }
}

/// A bid (§2 step 2): a contract of the schedule and its suit (the trump of a positive bid, the
/// nominal suit of a negative one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BostonBid {
    pub contract: BostonContract,
    pub suit: Suit,
}

impl fmt::Display for BostonBid {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} in {}", self.contract.name(), suit_name(self.suit))
    }
}

impl Placeholder for BostonBid {
    const PLACEHOLDER: &'static str = "<{\"contract\": five … twelve, boston, boston_ouvert, petite_misere, piccolissimo, grande_misere, four_ace_misere, petite_misere_ouverte, grande_misere_ouverte, \"suit\": S C D H}>";
}

fn suit_name(suit: Suit) -> &'static str {
    match suit {
        Suit::Spades => "spades",
        Suit::Hearts => "hearts",
        Suit::Diamonds => "diamonds",
        Suit::Clubs => "clubs",
    }
}

crate::verbs! {
    /// What a record of Boston de Fontainebleau can say.
    #[derive(Copy)]
    pub enum Verb in "Boston de Fontainebleau" {
        Pass(Yes) = "pass": "A pass in the auction (final; value `true`) (§3.1).",
        Bid(BostonBid) = "bid": "A bid: a contract of the schedule and its suit (§3, §3.1).",
        CallSupport(bool) = "call_support": "The soloist of Five to Eight calls for a supporter (`true`) or plays alone (`false`); not recorded: no call (§3.2, BO-e).",
        AcceptSupport(Yes) = "accept_support": "The player asked accepts the call for support and becomes the supporter (value `true`) (§3.2).",
        Decline(Yes) = "decline": "The player asked declines the call for support; the next player clockwise is asked (value `true`) (§3.2).",
        Discard(Card) = "discard": "The petite-misère soloist's one card discarded face down (§3.3, BO-c).",
        Expose(Yes) = "expose": "The soloist of an ouvert contract exposes his hand before the opening lead (value `true`); derived, so it may be left out (§2 step 4).",
        Play(Card) = "play": "A card played to the current trick.",
        Correct(Card) = "correct": "Replaces the seat's card in the current, incomplete trick (a revoke correction).",
    }
}

crate::auction_calls!(Verb, BostonBid);

/// §3.1: the bids in order of level, then suit, then a misère over the positive bid (BF-4); the
/// four-ace misère only by the holder of all four aces.
#[derive(Clone, Copy, Debug)]
struct Schedule {
    /// The seat dealt all four aces, if one was.
    aces: Option<Seat>,
    /// BF-4 `equal_suit_first_bid_holds`: at equal level and suit the first bid holds.
    first_bid_holds: bool,
}

impl Ladder for Schedule {
    type Bid = BostonBid;
    /// (level, suit rank, negative).
    type Rank = (u8, u8, bool);

    fn rank(&self, bid: &BostonBid) -> Option<Self::Rank> {
        Some((
            bid.contract.level(),
            bid.suit.whist_rank(),
            bid.contract.negative(),
        ))
    }

    fn bids(&self) -> Vec<BostonBid> {
        let mut bids: Vec<BostonBid> = BostonContract::ALL
            .iter()
            .flat_map(|&contract| Suit::ALL.map(|suit| BostonBid { contract, suit }))
            .collect();
        bids.sort_by_key(|b| self.rank(b));
        bids
    }

    fn follows(&self, seat: Seat, bid: &Self::Rank, standing: Option<&Self::Rank>) -> bool {
        // §3.1: the four-ace misère (level 5, negative) only by a player holding all four aces.
        if (bid.0, bid.2) == (5, true) && self.aces != Some(seat) {
            return false;
        }
        standing.is_none_or(|s| {
            if self.first_bid_holds {
                (bid.0, bid.1) > (s.0, s.1)
            } else {
                bid > s
            }
        })
    }
}

/// §3.1, BO-a: a pass is final; the auction ends when three have passed after a bid, or all four
/// pass.
const AUCTION: Conduct<BostonBid> = Conduct {
    rounds: Rounds::PassesFinal,
    equal: None,
    no_bid: NoBid::Passed,
    rule: "boston-de-fontainebleau.md §3.1, BO-a",
};

static OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "suit_factor",
        kind: OptionKind::Choice {
            values: &["whist_rank", "none"],
            default: "whist_rank",
        },
        description: "`whist_rank`: every amount is multiplied by the bid's suit factor, ♠1 ♣2 ♦3 ♥4 \
                      (the ruling); `none`: by 1 whatever the suit (the suit still ranks the bids).",
        rule: "boston-de-fontainebleau.md §6 BF-3",
    },
    OptionSpec {
        name: "equal_suit_first_bid_holds",
        kind: OptionKind::Flag { default: false },
        description: "At equal level and suit the bid made first holds, so a misère may not overcall \
                      the positive bid of its level and suit. Default: the misère overcalls it.",
        rule: "boston-de-fontainebleau.md §6 BF-4",
    },
    OptionSpec {
        name: "pool",
        kind: OptionKind::Flag { default: false },
        description: "Foster's pool: each dealer adds 5 to it; a soloist who makes his contract takes \
                      it (shared with his supporter); a failing soloist pays into it what he pays each \
                      opponent, and on the last agreed deal his opponents divide it. Default: no pool.",
        rule: "boston-de-fontainebleau.md §6 BF-6",
    },
    OptionSpec {
        name: "deals",
        kind: OptionKind::Count {
            min: 0,
            max: 10_000,
            default: 12,
        },
        description: "The deals in a game, passed-out deals included: when they are done the game is \
                      over and the highest net total wins (none on a tie for highest). 0: not agreed, \
                      the game goes on.",
        rule: "boston-de-fontainebleau.md §4, BF-6, BO-e",
    },
    OptionSpec {
        name: "revoke_penalty",
        kind: OptionKind::Choice {
            values: &["default", "none"],
            default: "default",
        },
        description: "`default`: a revoke by the soloist or the supporter fails the contract (at \
                      least one under-trick), by an opponent makes it (no over-tricks) (the rulings' \
                      default, the text being silent); `none`: revokes are reported only and the hand \
                      is settled on the tricks taken.",
        rule: "boston-de-fontainebleau.md §5, BO-d, BO-f",
    },
];

/// Score codes: the pool's ante, the pool taken by a contract made, paid into by a failing
/// soloist, divided on the last deal (BF-6 `pool`).
const POOL_ANTE_CODE: &str = "pool_ante";
const POOL_WON: &str = "pool_won";
const POOL_PAID: &str = "pool_paid";
const POOL_DIVIDED: &str = "pool_divided";

static INFO: GameInfo = GameInfo {
    id: "boston-de-fontainebleau",
    name: "Boston de Fontainebleau",
    tables: crate::engine::Tables(&[TABLE]),
    deck: "52-card pack, A high; 13 cards each; suits ranked ♠ < ♣ < ♦ < ♥ for bidding",
    // No target: a game is an agreed number of deals (`deals`), net units decide.
    game_target: 0,
    options: OPTIONS,
    rules: "docs/rules/boston-de-fontainebleau.md",
    irregularities: &["revoke"],
    record_errors: &[
        "out_of_turn",
        "unexpected_action",
        "illegal_bid",
        "card_not_held",
        "card_played_twice",
        "invalid_correct",
        "action_after_end",
        "incomplete_hand",
    ],
    events: &[
        "all_passed",
        "support_called",
        "support_declined",
        "support_accepted",
        "no_supporter",
        "discarded",
        "hand_exposed",
        "allowance_used",
    ],
    score_codes: &[
        "contract_made",
        "contract_failed",
        POOL_ANTE_CODE,
        POOL_WON,
        POOL_PAID,
        POOL_DIVIDED,
    ],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    titles: crate::engine::Titles(&[
        ("support_called", "The soloist calls for a supporter"),
        ("support_declined", "Call for support declined"),
        (
            "support_accepted",
            "Call for support accepted: the supporter",
        ),
        (
            "no_supporter",
            "Nobody accepted the call: the soloist plays alone",
        ),
        ("discarded", "Petite misère: the soloist's discard"),
        (
            "allowance_used",
            "Four-ace misère: the one failure to follow allowed",
        ),
        (POOL_ANTE_CODE, "The dealer's five to the pool"),
        (POOL_WON, "The pool taken by a contract made"),
        (POOL_PAID, "A failing soloist's payment to the pool"),
        (POOL_DIVIDED, "The pool divided on the last deal"),
    ]),
};

/// What Boston de Fontainebleau carries from deal to deal besides the net units.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = BostonDeFontainebleauCarried)]
pub struct Carried {
    /// Deals all four passed so far (BO-e): they count towards the agreed `deals` but not in
    /// `hands_played`, which counts the hands played to a result.
    #[serde(default)]
    pub passed_out: u32,
    /// The units in the pool (BF-6 `pool`); 0 without the option. The players' net units and the
    /// pool add up to nothing.
    #[serde(default)]
    pub pool: i32,
}

/// What a Boston de Fontainebleau adjudication adds.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = BostonDeFontainebleauDetails)]
pub struct Details {
    /// This deal's number in the game: deals before it (played and passed out) + 1 (BO-e).
    pub deal: u32,
    /// The winning bid; `null` before the auction ends or when all four passed.
    pub bid: Option<BostonBid>,
    /// The highest bidder, who plays alone or with a supporter; `null` as `bid`.
    pub soloist: Option<Seat>,
    /// Whether the soloist called for support (§3.2).
    pub support_called: bool,
    /// The player who accepted the call (§3.2); `null` when the soloist plays alone.
    pub supporter: Option<Seat>,
    /// The tricks the soloist must win: the number bid, 0 in a misère, 1 in piccolissimo.
    pub tricks_needed: Option<u32>,
    /// The supporter's minimum (§3); `null` without a supporter.
    pub supporter_needs: Option<u32>,
    /// The petite-misère discard (§3.3); `null` otherwise or before it.
    pub discard: Option<Card>,
    /// The soloist's hand as exposed in an ouvert contract (`[]` otherwise or before it).
    pub exposed_hand: Vec<Card>,
    /// The action where the four-ace misère's allowance was used (BO-b); `null` when it was not.
    pub allowance_used_at: Option<usize>,
    /// The suit factor (§4, BF-3); `null` without a contract.
    pub suit_factor: Option<i32>,
    /// Over-tricks counted (§4, BF-8); `null` before the hand is scored or when none count.
    pub over_tricks: Option<u32>,
    /// Under-tricks counted (§4, BF-8, BO-d); `null` as `over_tricks`.
    pub under_tricks: Option<u32>,
    /// The amount A each payment is (§4); `null` before the hand is scored.
    pub amount: Option<i32>,
    /// The pool once the hand is settled (BF-6 `pool`; the pool before it until then); `null`
    /// without the option.
    pub pool: Option<i32>,
}

/// How the options shape this hand's rules.
#[derive(Clone, Copy, Debug)]
struct Variants {
    /// BF-3 `suit_factor = none`.
    no_suit_factor: bool,
    /// BF-4 `equal_suit_first_bid_holds`.
    first_bid_holds: bool,
    /// BF-6 `pool`.
    pool: bool,
    deals: AgreedDeals,
    /// README "Penalties": `revoke_penalty = none` reports revokes without effect.
    penalties: bool,
}

impl Variants {
    fn of(options: &Options) -> Variants {
        Variants {
            no_suit_factor: options.choice("suit_factor") == "none",
            first_bid_holds: options.flag("equal_suit_first_bid_holds"),
            pool: options.flag("pool"),
            deals: AgreedDeals(options.count("deals")),
            penalties: options.choice("revoke_penalty") == "default",
        }
    }

    /// §4, BF-3: ♠1 ♣2 ♦3 ♥4, or 1 under `suit_factor = none`.
    fn factor(&self, suit: Suit) -> i32 {
        if self.no_suit_factor {
            1
        } else {
            suit.whist_rank() as i32
        }
    }
}

impl Rules for BostonDeFontainebleau {
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
        let aces = TABLE.seats().find(|&s| {
            let hand = dealt.hands[s.pos()];
            Suit::ALL
                .iter()
                .all(|&suit| hand.contains(Card::new(crate::cards::Rank::Ace, suit)))
        });
        let mut adj = Adjudication::new(INFO.id, dealer, before, TRICKS);
        adj.tally = PerSide::over(TABLE.sides());
        Ok(Box::new(Hand {
            rules,
            deal: AgreedDeals::done(before, carried.passed_out) + 1,
            carried,
            phase: Phase::Auction,
            auction: Auction::new(
                TABLE,
                eldest,
                Schedule {
                    aces,
                    first_bid_holds: rules.first_bid_holds,
                },
                AUCTION,
            ),
            aces,
            dealt_order: record.deal.values().flatten().copied().collect(),
            bid: None,
            soloist: None,
            support_called: false,
            supporter: None,
            discard: None,
            exposed: Vec::new(),
            expose_recorded: false,
            allowance_used_at: None,
            over_tricks: None,
            under_tricks: None,
            amount: None,
            pool_after: None,
            play: TrickPlay::new(TABLE, dealt.hands, eldest),
            revoke: FirstDecides::default(),
            revoke_ruling: None,
            ended_by_revoke: false,
            adj,
        }))
    }
}

/// A pool no deal can produce is refused (README C14): one without the option, or out of bounds;
/// then the net units and the pool must add up to nothing and the deals not be done (BO-e).
fn check_match(
    rules: &Variants,
    before: &MatchState,
    carried: &Carried,
) -> Result<(), Vec<FieldError>> {
    let pool = carried.pool;
    if !(0..=POOL_LIMIT).contains(&pool) || (!rules.pool && pool != 0) {
        return Err(vec![FieldError::new(
            "/match_state/pool".into(),
            if rules.pool {
                format!("the pool holds 0 to {POOL_LIMIT} units, not {pool} (BF-6)")
            } else {
                format!(
                    "the game is played without a pool (option pool is off), so it holds 0, not {pool} (BF-6)"
                )
            },
        )]);
    }
    rules
        .deals
        .check_match(before, carried.passed_out, i64::from(pool), "§4", "BO-e")
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// §3.1: pass or bid from Eldest.
    Auction,
    /// §3.2, BO-e: the soloist of Five to Eight may call for a supporter (not recorded: no call).
    SupportCall,
    /// §3.2: `asked` replies to the call, clockwise from the soloist's left.
    SupportReply {
        asked: Seat,
    },
    /// §3.3: the petite-misère soloist discards one card.
    Discard,
    Play,
    Over,
}

/// §5 DEFAULT, README C7: the first established revoke fixes the contract's fate.
#[derive(Clone, Copy, Debug)]
struct RevokeRuling {
    /// The contract is made (an opponent revoked) or failed (the soloist or supporter did).
    made: bool,
    /// Its index in `irregularities`.
    irregularity: usize,
}

#[derive(Clone)]
struct Hand {
    rules: Variants,
    deal: u32,
    carried: Carried,
    phase: Phase,
    auction: Auction<Schedule>,
    /// The seat dealt all four aces (§3.1: the only one who may bid four-ace misère).
    aces: Option<Seat>,
    /// Every card in the order the record deals it: an exposed hand is shown so.
    dealt_order: Vec<Card>,
    bid: Option<BostonBid>,
    soloist: Option<Seat>,
    support_called: bool,
    supporter: Option<Seat>,
    discard: Option<Card>,
    exposed: Vec<Card>,
    /// An `expose` is recorded (it may be left out: the exposure is derived).
    expose_recorded: bool,
    allowance_used_at: Option<usize>,
    over_tricks: Option<u32>,
    under_tricks: Option<u32>,
    amount: Option<i32>,
    pool_after: Option<i32>,
    play: TrickPlay,
    revoke: FirstDecides,
    revoke_ruling: Option<RevokeRuling>,
    /// BO-f: the first established revoke ended the hand at the end of its trick.
    ended_by_revoke: bool,
    adj: Adjudication,
}

impl Hand {
    fn contract(&self) -> BostonContract {
        self.bid.expect("the auction is over").contract
    }

    fn soloist(&self) -> Seat {
        self.soloist.expect("the auction is over")
    }

    /// The tricks of this hand: twelve in petite misère (BO-c), else thirteen.
    fn tricks(&self) -> usize {
        match self.bid {
            Some(b) if b.contract.petite() => PETITE_TRICKS,
            _ => TRICKS,
        }
    }

    /// The seat due to act (during the support call: the soloist, who may call or not).
    fn due(&self) -> Option<Seat> {
        match self.phase {
            Phase::Auction => self.auction.due(),
            Phase::SupportCall | Phase::Discard => self.soloist,
            Phase::SupportReply { asked } => Some(asked),
            Phase::Play => self.play.to_play(),
            Phase::Over => None,
        }
    }

    /// The seats that may act: the seat due; during the support call, and while the soloist may
    /// expose his hand, also the player to lead (BO-e, §2 step 4: both may act).
    fn to_act(&self) -> Vec<Seat> {
        if self.phase == Phase::SupportCall || self.expose_open() {
            let mut to_act: Vec<Seat> = [self.soloist, self.play.to_play()]
                .into_iter()
                .flatten()
                .collect();
            to_act.dedup();
            return to_act;
        }
        self.due().into_iter().collect()
    }

    fn what_is_due(&self) -> String {
        let seat = self.due().map_or(String::new(), |s| s.to_string());
        match self.phase {
            Phase::Auction => format!("{seat} passes or bids (§3.1)"),
            Phase::SupportCall => format!(
                "{seat}, the soloist, calls for a supporter or not (§3.2), or {} leads",
                self.play.to_play().map_or(String::new(), |s| s.to_string())
            ),
            Phase::SupportReply { asked } => {
                format!("{asked} accepts or declines the call for support (§3.2)")
            }
            Phase::Discard => {
                format!("{seat}, the soloist, discards one card face down (§3.3, BO-c)")
            }
            Phase::Play => format!("{seat} plays to trick {}", self.play.trick.number),
            Phase::Over => self.over().into(),
        }
    }

    fn over(&self) -> &'static str {
        if self.adj.outcome == Outcome::Void {
            "all four passed: the hand is not played"
        } else if self.ended_by_revoke {
            "a revoke decided the hand"
        } else {
            "the last trick has been played"
        }
    }

    /// README C11, C12: an action that does not fit the phase.
    fn out_of_phase(&self, index: usize, action: &Action<Verb>) -> RecordError {
        RecordError::misfit(index, action, self.due(), &self.what_is_due())
    }

    /// §3.1: a call; the auction's end sets the contract, or throws the deal in.
    fn call(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        // §3.1, BO-a: the four-ace misère needs all four aces (said in the rules' words; the
        // ladder refuses it too).
        if let Verb::Bid(bid) = action.kind
            && bid.contract == BostonContract::FourAceMisere
            && self.auction.due() == Some(action.seat)
            && self.aces != Some(action.seat)
        {
            return Err(RecordError::on(
                "illegal_bid",
                index,
                action,
                format!(
                    "{} may not bid {bid}: only a player holding all four aces may bid four-ace misère (§3.1, BO-a)",
                    action.seat
                ),
            ));
        }
        match self.auction.apply(index, action)? {
            None => {}
            Some(End::Won { declarer, bid }) => self.won(index, declarer, bid),
            Some(End::Passed) => {
                self.adj.outcome = Outcome::Void;
                self.phase = Phase::Over;
                self.adj.events.push(Event::new(
                    "all_passed",
                    Some(index),
                    action.seat,
                    Vec::new(),
                    "all four passed: there is no play and the deal passes to the left; it counts towards the game's deals (§3.1, BF-6, BO-e)".into(),
                ));
            }
            Some(End::Compelled { .. }) => unreachable!("nobody is compelled to bid (§3.1)"),
        }
        Ok(())
    }

    /// The auction is won: the contract, its trump and camps; then support, discard or play.
    fn won(&mut self, index: usize, soloist: Seat, bid: BostonBid) {
        self.soloist = Some(soloist);
        self.bid = Some(bid);
        let c = bid.contract;
        let mut contract = Contract::new(soloist, TABLE.side(soloist));
        contract.bid = serde_json::to_value(bid).ok();
        contract.target = Some(c.tricks().unwrap_or(c.misere_tricks()) as i32);
        self.adj.contract = Some(contract);
        // §3.3: positive bids' suit is trump; misères and piccolissimo are played without.
        self.adj.trump = (!c.negative()).then_some(bid.suit);
        self.adj
            .set_camps(TABLE, "soloist", &[soloist], "opponents");
        if c.supporter_minimum().is_some() {
            self.phase = Phase::SupportCall;
        } else if c.petite() {
            self.phase = Phase::Discard;
        } else {
            self.start_play(index);
        }
    }

    /// Play begins: Eldest leads (BF-5); in an ouvert contract the soloist's hand is exposed first.
    fn start_play(&mut self, index: usize) {
        self.phase = Phase::Play;
        let c = self.contract();
        if c.ouvert() {
            let soloist = self.soloist();
            let hand = self.play.hand(soloist);
            self.exposed = self
                .dealt_order
                .iter()
                .copied()
                .filter(|&c| hand.contains(c))
                .collect();
            self.adj.events.push(Event::new(
                "hand_exposed",
                Some(index),
                soloist,
                self.exposed.clone(),
                format!(
                    "{soloist} plays {} and exposes his hand before the opening lead (§3.3)",
                    c.name()
                ),
            ));
        }
    }

    /// §3.2, BO-e: the soloist calls for support, or not.
    fn call_support(&mut self, index: usize, seat: Seat, call: bool) {
        if call {
            self.support_called = true;
            let asked = TABLE.left(seat);
            self.adj.events.push(Event::new(
                "support_called",
                Some(index),
                seat,
                Vec::new(),
                format!("{seat} calls for a supporter; {asked} is asked first (§3.2)"),
            ));
            self.phase = Phase::SupportReply { asked };
        } else {
            self.start_play(index);
        }
    }

    /// §3.2: the player asked accepts (he becomes the supporter) or declines (the next is asked;
    /// after three declines the soloist plays alone).
    fn reply(&mut self, index: usize, asked: Seat, accept: bool) {
        let soloist = self.soloist();
        if accept {
            self.supporter = Some(asked);
            self.adj.reveal_ally("soloist", asked, index);
            let min = self.contract().supporter_minimum().unwrap_or(0);
            self.adj.events.push(Event::new(
                "support_accepted",
                Some(index),
                asked,
                Vec::new(),
                format!("{asked} accepts and supports {soloist}: he must win at least {min} tricks, each keeping his own (§3.2)"),
            ));
            self.start_play(index);
            return;
        }
        self.adj.events.push(Event::new(
            "support_declined",
            Some(index),
            asked,
            Vec::new(),
            format!("{asked} declines to support {soloist} (§3.2)"),
        ));
        let next = TABLE.left(asked);
        if next == soloist {
            self.adj.events.push(Event::new(
                "no_supporter",
                Some(index),
                soloist,
                Vec::new(),
                format!("all three declined: {soloist} plays alone at his bid (§3.2)"),
            ));
            self.start_play(index);
        } else {
            self.phase = Phase::SupportReply { asked: next };
        }
    }

    /// §3.3, BO-c: the petite-misère soloist discards one card face down.
    fn discard(&mut self, index: usize, seat: Seat, card: Card) -> Result<(), RecordError> {
        self.play.give_up(index, seat, card, "discard")?;
        self.discard = Some(card);
        self.adj.events.push(Event::new(
            "discarded",
            Some(index),
            seat,
            vec![card],
            format!("{seat} discards one card face down; twelve tricks are played (§3.3, BO-c)"),
        ));
        self.start_play(index);
        Ok(())
    }

    /// BO-b: the four-ace misère soloist's one failure to follow in tricks 1–10 is allowed; the
    /// seat whose failure would be the allowance now, if any.
    fn allowance(&self) -> Option<Seat> {
        let open = self.contract() == BostonContract::FourAceMisere
            && self.allowance_used_at.is_none()
            && self.play.trick.number <= ALLOWANCE_TRICKS;
        open.then(|| self.soloist())
    }

    /// §3.3: follow suit if able (the allowance aside, BO-b).
    fn judge(&self) -> impl Fn(&Trick, CardSet, Card) -> Option<Fault> + use<> {
        let allowed = self.allowance();
        move |trick, hand, card| {
            must_follow_suit(TABLE, RULE_PLAY, trick, hand, card)
                .filter(|_| Some(trick.next_seat(TABLE)) != allowed)
        }
    }

    fn play_card(&mut self, index: usize, seat: Seat, card: Card) -> Result<(), RecordError> {
        let failure = must_follow_suit(
            TABLE,
            RULE_PLAY,
            &self.play.trick,
            self.play.hand(seat),
            card,
        );
        let allowance = self.allowance() == Some(seat) && failure.is_some();
        let judge = self.judge();
        self.play.play_judged(index, seat, card, judge)?;
        if allowance {
            self.allowance_used_at = Some(index);
            self.adj.events.push(Event::new(
                "allowance_used",
                Some(index),
                seat,
                vec![card],
                format!(
                    "{seat} does not follow suit in trick {}: the four-ace misère allows it once in the first ten tricks, so it is no revoke (§3.3, BO-b)",
                    self.play.trick.number
                ),
            ));
        }
        if self.play.is_complete() {
            self.close_trick();
        }
        Ok(())
    }

    fn close_trick(&mut self) {
        let winner = self
            .play
            .trick
            .trump_or_led_winner(self.adj.trump, &RankOrder::ACE_HIGH)
            .expect("a complete trick of suited cards");
        let (trick, established) = self.play.close_trick(winner);
        self.adj.tally[TABLE.side(winner)].tricks += 1;
        self.adj.tricks.push(TrickReport::new(trick, winner));
        for e in established {
            self.revoke_established(e);
        }
        if self.adj.tricks.len() == self.tricks() || self.ended_by_revoke {
            self.play.stop();
            self.phase = Phase::Over;
        }
    }

    /// §5 DEFAULT, BO-d, BO-f, README C7: the first established revoke fixes the contract's fate:
    /// by an opponent it is made with no over-tricks and the hand ends; by the soloist or the
    /// supporter it fails, and the hand ends unless the bid is Five to Twelve (the real shortfall
    /// counts, at least one). Later revokes have no further effect.
    fn revoke_established(&mut self, e: Established) {
        let c = self.contract();
        let declarer = e.seat == self.soloist() || Some(e.seat) == self.supporter;
        let i = self.adj.irregularities.len();
        let consequence = if !self.rules.penalties {
            "reported only: the option revoke_penalty is none, the hand is settled on the tricks taken".to_string()
        } else if let Some(no_effect) =
            self.revoke
                .offence(TABLE.side(e.seat), e.action_index, e.fault.code)
        {
            no_effect
        } else {
            self.revoke_ruling = Some(RevokeRuling {
                made: !declarer,
                irregularity: i,
            });
            self.ended_by_revoke = !declarer || !c.counts_shortfall();
            match (declarer, c.counts_shortfall()) {
                (false, _) => format!(
                    "DEFAULT (text silent): an opponent revoked, so the {} is made with no over-tricks and the hand ends at this trick (§5, BO-d, BO-f)",
                    c.name()
                ),
                (true, true) => format!(
                    "DEFAULT (text silent): the {} fails with at least one under-trick; the hand is played out and the real shortfall counts if larger (§5, BO-d, BO-f)",
                    c.name()
                ),
                (true, false) => format!(
                    "DEFAULT (text silent): the {} fails and the hand ends at this trick (§5, BO-d, BO-f)",
                    c.name()
                ),
            }
        };
        let mut irregularity = e.irregularity(consequence);
        if self.ended_by_revoke && self.revoke_ruling.is_some_and(|r| r.irregularity == i) {
            irregularity.effect.decides = Some(Decides::Hand);
        }
        self.adj.irregularities.push(irregularity);
    }

    /// §4: settles a hand played out, decided by a revoke, or passed out; and the game (BO-e).
    fn score(&mut self) {
        let dealer = self.adj.dealer;
        let mut carried = self.carried.clone();
        let last = self.rules.deals.0 > 0 && self.deal >= self.rules.deals.0;
        if self.rules.pool {
            // BF-6 `pool`: the dealer adds five, played out or not.
            self.adj.score(
                TABLE.side(dealer),
                -POOL_ANTE,
                ScoreSource::Contract,
                POOL_ANTE_CODE,
                None,
            );
            carried.pool += POOL_ANTE;
        }
        if self.adj.outcome == Outcome::Void {
            // No play: the deal passes left and counts towards the game (BO-e), not as a hand played.
            carried.passed_out += 1;
        } else {
            let made = self.settle_contract();
            if self.rules.pool {
                self.settle_pool(made, last, &mut carried.pool);
            }
        }
        self.adj.settle();
        if self.rules.pool {
            self.pool_after = Some(carried.pool);
        }
        let m = &mut self.adj.match_after;
        m.next_dealer = Some(TABLE.left(dealer));
        let passed_out = carried.passed_out;
        m.details = details::Details::of(carried);
        // §4, BO-g: after the last deal the highest net total wins; a tie at the top, nobody.
        self.rules.deals.close(m, passed_out);
    }

    /// §4, §5 DEFAULT: the amount A and who pays it; returns whether the contract was made.
    fn settle_contract(&mut self) -> bool {
        let bid = self.bid.expect("a contract was played");
        let c = bid.contract;
        let f = self.rules.factor(bid.suit);
        let soloist = self.soloist();
        let won = |s: Seat| self.adj.tally[TABLE.side(s)].tricks;
        let s = won(soloist);
        let (made, counted) = match c.tricks() {
            Some(n) => {
                let (t, m) = match self.supporter {
                    Some(p) => (won(p), c.supporter_minimum().unwrap_or(0)),
                    None => (0, 0),
                };
                let under = n.saturating_sub(s) + m.saturating_sub(t);
                if under == 0 {
                    (true, (s + t) - (n + m))
                } else {
                    (false, under)
                }
            }
            None => (s == c.misere_tricks(), 0),
        };
        let (made, counted, by_revoke) = match (self.revoke_ruling, self.rules.penalties) {
            (Some(r), true) if r.made => (true, 0, Some(r.irregularity)),
            // BO-d: at least one under-trick; misères and Boston pay base × factor either way.
            (Some(r), true) => {
                let under = if made { 0 } else { counted };
                (false, under.max(1), Some(r.irregularity))
            }
            _ => (made, counted, None),
        };
        let per = c.per_trick();
        let amount = (c.base() + counted as i32 * per) * f;
        if per > 0 {
            if made {
                self.over_tricks = Some(counted);
            } else {
                self.under_tricks = Some(counted);
            }
        }
        self.amount = Some(amount);
        let (payers, payees) = if made {
            ("opponents", "soloist")
        } else {
            ("soloist", "opponents")
        };
        let (source, code) = match by_revoke {
            Some(i) => (ScoreSource::Penalty, self.adj.irregularities[i].code),
            None if made => (ScoreSource::Contract, "contract_made"),
            None => (ScoreSource::Contract, "contract_failed"),
        };
        let from = self.adj.score_items.len();
        // §4: alone, each opponent pays A to the soloist (or he pays each of them); supported,
        // each of the two opponents pays one of the pair (or each of the pair pays one of them).
        if self.supporter.is_some() {
            self.adj
                .pay_in_pairs(TABLE, payers, payees, amount, source, code);
        } else {
            self.adj
                .pay_each_from_each(TABLE, payers, payees, amount, source, code);
        }
        if let Some(i) = by_revoke {
            // The penalty's numbers, as its score items state them.
            let items: Vec<_> = self.adj.score_items[from..]
                .iter()
                .map(|item| (item.side, item.points))
                .collect();
            for (side, points) in items {
                self.adj.irregularities[i].effect.points[side] += points;
            }
            for item in &mut self.adj.score_items[from..] {
                item.action_index = self.adj.irregularities[i].action_index;
            }
        }
        if let Some(contract) = &mut self.adj.contract {
            contract.made = Some(made);
        }
        self.adj.hand_winner = made.then(|| TABLE.side(soloist));
        made
    }

    /// BF-6 `pool` (Foster): a contract made takes the pool (the supporter shares it, the odd unit
    /// to the soloist); a failing soloist pays into it A, and on the last deal his opponents divide
    /// it (the odd units one each from his left).
    fn settle_pool(&mut self, made: bool, last: bool, pool: &mut i32) {
        let soloist = self.soloist();
        let amount = self.amount.expect("the contract is settled");
        if made {
            // The odd unit of a shared pool to the soloist.
            let supporter_share = if self.supporter.is_some() {
                *pool / 2
            } else {
                0
            };
            let shares = [
                (Some(soloist), *pool - supporter_share),
                (self.supporter, supporter_share),
            ];
            for (seat, share) in shares {
                if let Some(s) = seat {
                    self.adj
                        .score(TABLE.side(s), share, ScoreSource::Contract, POOL_WON, None);
                }
            }
            *pool = 0;
            return;
        }
        self.adj.score(
            TABLE.side(soloist),
            -amount,
            ScoreSource::Contract,
            POOL_PAID,
            None,
        );
        *pool += amount;
        if last {
            let mut opponents: Vec<Seat> = Vec::new();
            let mut s = TABLE.left(soloist);
            while s != soloist {
                if Some(s) != self.supporter {
                    opponents.push(s);
                }
                s = TABLE.left(s);
            }
            let n = opponents.len() as i32;
            for (k, &o) in opponents.iter().enumerate() {
                let share = *pool / n + i32::from((k as i32) < *pool % n);
                self.adj.score(
                    TABLE.side(o),
                    share,
                    ScoreSource::Contract,
                    POOL_DIVIDED,
                    None,
                );
            }
            *pool = 0;
        }
    }

    fn details(&self) -> Details {
        let c = self.bid.map(|b| b.contract);
        Details {
            deal: self.deal,
            bid: self.bid,
            soloist: self.soloist,
            support_called: self.support_called,
            supporter: self.supporter,
            tricks_needed: c.map(|c| c.tricks().unwrap_or(c.misere_tricks())),
            supporter_needs: self
                .supporter
                .and(c.and_then(BostonContract::supporter_minimum)),
            discard: self.discard,
            exposed_hand: self.exposed.clone(),
            allowance_used_at: self.allowance_used_at,
            suit_factor: self.bid.map(|b| self.rules.factor(b.suit)),
            over_tricks: self.over_tricks,
            under_tricks: self.under_tricks,
            amount: self.amount,
            pool: self
                .rules
                .pool
                .then(|| self.pool_after.unwrap_or(self.carried.pool)),
        }
    }

    fn phase_name(&self) -> &'static str {
        match self.phase {
            Phase::Auction => "auction",
            Phase::SupportCall | Phase::SupportReply { .. } => "support",
            Phase::Discard => "discard",
            Phase::Play => "play",
            Phase::Over => "over",
        }
    }

    /// An `expose` is due: an ouvert contract, before the first card, not yet recorded.
    fn expose_open(&self) -> bool {
        self.phase == Phase::Play
            && self.bid.is_some_and(|b| b.contract.ouvert())
            && self.adj.tricks.is_empty()
            && self.play.trick.is_empty()
            && !self.expose_recorded
    }
}

impl HandState<Verb> for Hand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        if self.phase == Phase::Over {
            // README C9, C6, BO-f: after a revoke that decided the hand, later actions are ignored.
            if self.ended_by_revoke
                && let Some(ignored) = self
                    .revoke
                    .ignores(index, "boston-de-fontainebleau.md §5, BO-f")
            {
                self.adj.ignored_actions.push(ignored);
                return Ok(());
            }
            return Err(self.out_of_phase(index, action));
        }
        // BO-e: anything but a call after the auction of Five to Eight means no call.
        if self.phase == Phase::SupportCall && !matches!(action.kind, Verb::CallSupport(_)) {
            self.start_play(index);
        }
        match (self.phase, action.kind) {
            (Phase::Auction, _) => self.call(index, action),
            (Phase::Play, Verb::Correct(card)) => {
                let judge = self.judge();
                self.play.correct(index, seat, card, judge)
            }
            // BO-g: the soloist exposes his hand before the opening lead (ouvert contracts).
            (Phase::Play, Verb::Expose(_)) if self.expose_open() && seat == self.soloist() => {
                self.expose_recorded = true;
                Ok(())
            }
            (Phase::Play, Verb::Expose(_)) if self.expose_open() => Err(RecordError::on(
                "out_of_turn",
                index,
                action,
                format!(
                    "only {}, the soloist, exposes his hand (§3.3, BO-g)",
                    self.soloist()
                ),
            )),
            // README C12, BO-g: the seat is checked before the verb.
            (_, _) if self.due() != Some(seat) || matches!(action.kind, Verb::Correct(_)) => {
                Err(self.out_of_phase(index, action))
            }
            (Phase::SupportCall, Verb::CallSupport(call)) => {
                self.call_support(index, seat, call);
                Ok(())
            }
            (Phase::SupportReply { asked }, Verb::AcceptSupport(_)) => {
                self.reply(index, asked, true);
                Ok(())
            }
            (Phase::SupportReply { asked }, Verb::Decline(_)) => {
                self.reply(index, asked, false);
                Ok(())
            }
            (Phase::Discard, Verb::Discard(card)) => self.discard(index, seat, card),
            (Phase::Play, Verb::Play(card)) => self.play_card(index, seat, card),
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

    fn candidates(&self) -> Vec<Action<Verb>> {
        let action = |seat, kind| Action { seat, kind };
        match self.phase {
            Phase::Auction => self.auction.candidates(),
            // BO-e: the call, or (no call) the opening lead.
            Phase::SupportCall => [true, false]
                .map(|call| action(self.soloist(), Verb::CallSupport(call)))
                .into_iter()
                .chain(self.play.candidates(Verb::Play, Verb::Correct))
                .collect(),
            Phase::SupportReply { asked } => vec![
                action(asked, Verb::AcceptSupport(Yes)),
                action(asked, Verb::Decline(Yes)),
            ],
            Phase::Discard => self
                .play
                .hand(self.soloist())
                .iter()
                .map(|c| action(self.soloist(), Verb::Discard(c)))
                .collect(),
            Phase::Play => {
                let mut out = self.play.candidates(Verb::Play, Verb::Correct);
                if self.expose_open() {
                    out.push(action(self.soloist(), Verb::Expose(Yes)));
                }
                out
            }
            Phase::Over => Vec::new(),
        }
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
            // BO-f: every hand is played to its last trick unless a revoke decided it.
            _ => Ending::Open {
                due: match self.phase {
                    Phase::SupportCall => None,
                    _ => self.due(),
                },
                detail: format!(
                    "the record stops before the hand is over ({} of {} tricks played): {}",
                    self.adj.tricks.len(),
                    self.tricks(),
                    self.what_is_due()
                ),
            },
        };
        if !self.adj.unscored(error, ending) {
            self.score();
        }
        self.adj.details = details::Details::of(self.details());
        self.adj
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use BostonContract::*;

    fn bid(contract: BostonContract, suit: Suit) -> BostonBid {
        BostonBid { contract, suit }
    }

    /// §3, BF-1: the schedule's values, and the largest settlement Foster gives (BF-3): Boston
    /// ouvert in hearts, 200 × 4 from each of three opponents.
    #[test]
    fn the_schedule() {
        let row = |c: BostonContract| (c.level(), c.base(), c.per_trick(), c.tricks());
        assert_eq!(row(Five), (1, 4, 1, Some(5)));
        assert_eq!(row(Eight), (4, 12, 4, Some(8)));
        assert_eq!(row(Twelve), (8, 24, 8, Some(12)));
        assert_eq!(row(Boston), (9, 100, 0, Some(13)));
        assert_eq!(row(BostonOuvert), (10, 200, 0, Some(13)));
        assert_eq!(row(PetiteMisere), (2, 16, 0, None));
        assert_eq!(row(Piccolissimo), (3, 24, 0, None));
        assert_eq!(row(GrandeMisereOuverte), (7, 56, 0, None));
        assert_eq!(Five.supporter_minimum(), Some(3));
        assert_eq!(Eight.supporter_minimum(), Some(4));
        assert_eq!(Nine.supporter_minimum(), None);
        assert_eq!(
            BostonOuvert.base() * Suit::Hearts.whist_rank() as i32 * 3,
            2400
        );
    }

    /// §3.1, BF-4: level, then suit, then the misère over the positive bid; under the option the
    /// first bid holds at equal level and suit. The four-ace misère only for the aces' holder.
    #[test]
    fn what_overcalls_what() {
        let plain = Schedule {
            aces: Some(Seat::W),
            first_bid_holds: false,
        };
        let first = Schedule {
            first_bid_holds: true,
            ..plain
        };
        let over = |l: &Schedule, seat, a: BostonBid, b: BostonBid| {
            l.follows(seat, &l.rank(&a).unwrap(), Some(&l.rank(&b).unwrap()))
        };
        let six_d = bid(Six, Suit::Diamonds);
        assert!(over(
            &plain,
            Seat::N,
            bid(PetiteMisere, Suit::Diamonds),
            six_d
        ));
        assert!(over(
            &plain,
            Seat::N,
            bid(PetiteMisere, Suit::Hearts),
            six_d
        ));
        assert!(!over(
            &plain,
            Seat::N,
            bid(PetiteMisere, Suit::Clubs),
            six_d
        ));
        assert!(!over(
            &plain,
            Seat::N,
            six_d,
            bid(PetiteMisere, Suit::Diamonds)
        ));
        assert!(!over(
            &first,
            Seat::N,
            bid(PetiteMisere, Suit::Diamonds),
            six_d
        ));
        assert!(over(
            &first,
            Seat::N,
            bid(PetiteMisere, Suit::Hearts),
            six_d
        ));
        assert!(over(
            &plain,
            Seat::N,
            bid(Seven, Suit::Spades),
            bid(Six, Suit::Hearts)
        ));
        let four_ace = bid(FourAceMisere, Suit::Spades);
        assert!(plain.follows(Seat::W, &plain.rank(&four_ace).unwrap(), None));
        assert!(!plain.follows(Seat::N, &plain.rank(&four_ace).unwrap(), None));
        assert_eq!(plain.bids().len(), 64);
    }
}
