//! Auction Solo (`docs/rules/auction-solo.md`): four players each for himself, the 52-card pack, A
//! high; 13 cards each, the dealer's last card turned up: its suit is the turned suit. An auction
//! of solo-type bids from Eldest, passes final; the highest bidder plays alone against the other
//! three: solo 5–8, misère, abundance 9–12, misère ouverte, the no-trump slam (he leads) and the
//! slam in the turned suit. A bid of N in the turned suit ranks just above N in an own suit. Each
//! opponent pays the soloist, or he pays each of them; the match is an agreed number of deals.

use crate::cards::{Card, CardSet, Suit, packs};
use crate::details;
use crate::engine::auction::{Auction, Conduct, End, Ladder, NoBid, Rounds};
use crate::engine::deal::{Count, HandSize, Holds, Part, Setup};
use crate::engine::deals::{self, AgreedDeals};
use crate::engine::{
    Adjudication, Called, Contract, Decides, Ending, Established, Event, Fault, FieldError,
    FirstDecides, GameInfo, HandState, Locus, MatchState, OptionKind, OptionSpec, Options, Outcome,
    PerSide, RankOrder, RecordError, Rules, ScoreSource, Seat, Table, TableView, Trick, TrickPlay,
    TrickReport, deal, must_follow_suit,
};
use crate::record::{Action, HandRecord, Placeholder};
use serde::{Deserialize, Serialize};
use std::fmt;
use utoipa::ToSchema;

pub struct AuctionSolo;

/// §1: four players, each for himself; the soloist and his three opponents are the hand's camps.
const TABLE: Table = Table::solo(4);
const TRICKS: usize = 13;
/// §1: A high.
const ORDER: RankOrder = RankOrder::ACE_HIGH;
/// The rule that decides a hand by a revoke, named in every action it sets aside.
const PENALTY_RULE: &str = "auction-solo.md §5, AS-e";

crate::verbs! {
    /// What a record of Auction Solo can say.
    pub enum Verb in "Auction Solo" {
        Pass(crate::record::Yes) = "pass": "A pass in the auction (value `true`): final, the seat calls no more (§3).",
        Bid(Bid) = "bid": "A bid: its `kind`, the `tricks` of a solo or abundance, `in_turned_suit` for a bid in the turned suit, and optionally the `suit` of an own-suit bid (§2, AS-1, AS-b). A malformed bid is the record error `unexpected_action`, a bid not higher than the standing one `illegal_bid`.",
        Trump(Called) = "trump": "The soloist's trump (S, H, D or C) once he has won the auction with an own-suit solo or abundance (§2 step 3); after a bid that stated its suit, or one in the turned suit, it may be omitted and must name that suit (AS-b, AS-f).",
        Play(Card) = "play": "A card played to the current trick.",
        Correct(Card) = "correct": "Replaces the seat's card in the current, incomplete trick (a revoke correction).",
    }
}

crate::auction_calls!(Verb, Bid);

/// A bid as recorded (§2 step 2). Read loosely, so that a malformed bid is the record error
/// `unexpected_action` (AS-f), not a refusal of the record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = AuctionSoloBid)]
pub struct Bid {
    /// `solo`, `misere`, `abundance`, `misere_ouverte`, `no_trump_slam` or `slam` (the slam in the
    /// turned suit).
    pub kind: String,
    /// Solo: 5 to 8; abundance: 9 to 12; no other bid carries it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tricks: Option<i64>,
    /// `true`: the solo or abundance is in the turned suit and ranks just above the same number
    /// in an own suit (AS-1). The slam is always in the turned suit (`true` or left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_turned_suit: Option<bool>,
    /// The trump of an own-suit solo or abundance, when the bidder states it (AS-b): it then
    /// ranks as an own-suit bid whatever the suit (AS-1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suit: Option<Called>,
}

impl Placeholder for Bid {
    const PLACEHOLDER: &'static str = "{\"kind\": \"<solo|misere|abundance|misere_ouverte|no_trump_slam|slam>\", \"tricks\": <5-12>, \"in_turned_suit\": <true|false>}";
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.read() {
            Ok(read) => read.fmt(f),
            Err(_) => write!(f, "{}", serde_json::to_string(self).unwrap_or_default()),
        }
    }
}

/// The contracts of §3, lowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Solo(u8),
    Misere,
    Abundance(u8),
    MisereOuverte,
    NoTrumpSlam,
    Slam,
}

impl Kind {
    /// §3: the place in the list of bids, 1 (solo 5) to 12 (the slam in the turned suit).
    fn place(self) -> u8 {
        match self {
            Kind::Solo(n) => n - 4,
            Kind::Misere => 5,
            Kind::Abundance(n) => n - 3,
            Kind::MisereOuverte => 10,
            Kind::NoTrumpSlam => 11,
            Kind::Slam => 12,
        }
    }

    /// The tricks a positive bid must win; `None` for the misères.
    fn tricks(self) -> Option<u8> {
        match self {
            Kind::Solo(n) | Kind::Abundance(n) => Some(n),
            Kind::NoTrumpSlam | Kind::Slam => Some(TRICKS as u8),
            Kind::Misere | Kind::MisereOuverte => None,
        }
    }

    /// §4: what each opponent pays, or is paid, before over- and under-tricks.
    fn base(self) -> i32 {
        match self {
            Kind::Solo(_) => 2,
            Kind::Misere => 4,
            Kind::Abundance(_) => 6,
            Kind::MisereOuverte => 8,
            Kind::NoTrumpSlam | Kind::Slam => 12,
        }
    }

    /// §4, AS-c: over- and under-tricks count in solo and abundance only (slams pay a flat 12).
    fn counts_extra_tricks(self) -> bool {
        matches!(self, Kind::Solo(_) | Kind::Abundance(_))
    }

    /// Whether the soloist chooses the trump: solo and abundance.
    fn own_trump(self) -> bool {
        matches!(self, Kind::Solo(_) | Kind::Abundance(_))
    }
}

/// A well-formed bid: its contract, whether it is in the turned suit, and a stated suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Reading {
    kind: Kind,
    turned: bool,
    suit: Option<Suit>,
}

impl Reading {
    /// AS-1, AS-a: one ladder, each 'N in the turned suit' just above 'N in own suit'.
    fn rank(self) -> (u8, bool) {
        (self.kind.place(), self.turned)
    }
}

impl fmt::Display for Reading {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let turned = if self.turned && self.kind != Kind::Slam {
            " in the turned suit"
        } else {
            ""
        };
        match self.kind {
            Kind::Solo(n) => write!(f, "solo {n}{turned}")?,
            Kind::Abundance(n) => write!(f, "abundance {n}{turned}")?,
            Kind::Misere => f.write_str("misère")?,
            Kind::MisereOuverte => f.write_str("misère ouverte")?,
            Kind::NoTrumpSlam => f.write_str("no-trump slam")?,
            Kind::Slam => f.write_str("slam in the turned suit")?,
        }
        match self.suit {
            Some(s) => write!(f, " ({s} stated)"),
            None => Ok(()),
        }
    }
}

impl Bid {
    /// AS-f: the bid as the rules know it, or why it is malformed (an unknown kind, tricks outside
    /// 5–8 or 9–12, a stated suit or turned-suit flag on a bid that cannot carry it).
    fn read(&self) -> Result<Reading, String> {
        let turned = self.in_turned_suit;
        let numbered = |low: i64, high: i64, make: fn(u8) -> Kind| match self.tricks {
            Some(n) if (low..=high).contains(&n) => Ok(make(n as u8)),
            Some(n) => Err(format!(
                "{} is for {low} to {high} tricks, not {n}",
                self.kind
            )),
            None => Err(format!("{} names its tricks, {low} to {high}", self.kind)),
        };
        let kind = match self.kind.as_str() {
            "solo" => numbered(5, 8, Kind::Solo)?,
            "abundance" => numbered(9, 12, Kind::Abundance)?,
            "misere" => Kind::Misere,
            "misere_ouverte" => Kind::MisereOuverte,
            "no_trump_slam" => Kind::NoTrumpSlam,
            "slam" => Kind::Slam,
            other => {
                return Err(format!(
                    "'{other}' is not a bid: the kinds are solo, misere, abundance, misere_ouverte, no_trump_slam and slam"
                ));
            }
        };
        // Only a solo or an abundance names its tricks.
        if !kind.own_trump()
            && let Some(n) = self.tricks
        {
            return Err(format!("{} names no tricks, yet {n} are given", self.kind));
        }
        let turned = match (kind, turned) {
            (Kind::Slam, Some(false)) => {
                return Err(
                    "the slam is in the turned suit only: in_turned_suit cannot be false".into(),
                );
            }
            (Kind::Slam, _) => true,
            (k, Some(true)) if !k.own_trump() => {
                return Err(format!(
                    "{} has no trump, so it cannot be in the turned suit",
                    self.kind
                ));
            }
            (_, t) => t.unwrap_or(false),
        };
        let suit = match &self.suit {
            None => None,
            Some(_) if !kind.own_trump() => {
                return Err(format!("{} cannot state a suit", self.kind));
            }
            Some(_) if turned => {
                return Err(
                    "a bid in the turned suit states no other suit: its trump is the turned suit"
                        .into(),
                );
            }
            Some(called) => Some(called.0.parse::<Suit>()?),
        };
        Ok(Reading { kind, turned, suit })
    }

    fn of(kind: Kind, turned: bool) -> Bid {
        let (kind, tricks) = match kind {
            Kind::Solo(n) => ("solo", Some(i64::from(n))),
            Kind::Abundance(n) => ("abundance", Some(i64::from(n))),
            Kind::Misere => ("misere", None),
            Kind::MisereOuverte => ("misere_ouverte", None),
            Kind::NoTrumpSlam => ("no_trump_slam", None),
            Kind::Slam => ("slam", None),
        };
        Bid {
            kind: kind.into(),
            tricks,
            in_turned_suit: turned.then_some(true),
            suit: None,
        }
    }
}

/// §3, AS-1, AS-a: the twelve bids with their turned-suit steps in one ladder; each call higher
/// than the standing bid.
#[derive(Clone, Copy, Debug)]
struct SoloBids;

impl Ladder for SoloBids {
    type Bid = Bid;
    type Rank = (u8, bool);

    fn rank(&self, bid: &Bid) -> Option<(u8, bool)> {
        bid.read().ok().map(Reading::rank)
    }

    /// Each rank once, lowest first: an own-suit bid without its suit (stating one is the
    /// bidder's to add).
    fn bids(&self) -> Vec<Bid> {
        let mut bids = Vec::new();
        for n in 5..=8 {
            bids.push(Bid::of(Kind::Solo(n), false));
            bids.push(Bid::of(Kind::Solo(n), true));
        }
        bids.push(Bid::of(Kind::Misere, false));
        for n in 9..=12 {
            bids.push(Bid::of(Kind::Abundance(n), false));
            bids.push(Bid::of(Kind::Abundance(n), true));
        }
        bids.push(Bid::of(Kind::MisereOuverte, false));
        bids.push(Bid::of(Kind::NoTrumpSlam, false));
        bids.push(Bid::of(Kind::Slam, true));
        bids
    }
}

/// §3: from Eldest, passes final, until three have passed after a bid; all four pass: no play.
const AUCTION: Conduct<Bid> = Conduct {
    rounds: Rounds::PassesFinal,
    equal: None,
    no_bid: NoBid::Passed,
    rule: "auction-solo.md §3, AS-a",
};

static OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "expose_before_lead",
        kind: OptionKind::Flag { default: false },
        description: "The misère ouverte soloist exposes his hand before the opening lead. Default: \
                      after the first trick (the Solo Whist convention). Either way the exposure is \
                      reported and changes nothing (AS-d).",
        rule: "auction-solo.md §6 AS-2",
    },
    OptionSpec {
        name: "deals",
        kind: OptionKind::Count {
            min: 0,
            max: 10_000,
            default: 16,
        },
        description: "The agreed number of deals, thrown-in deals included: when they are done the \
                      match is over and the highest net total wins (none on a tie for highest). 0: \
                      not agreed, the match never ends by itself.",
        rule: "auction-solo.md §4, AS-d, AS-g",
    },
    OptionSpec {
        name: "revoke_penalty",
        kind: OptionKind::Choice {
            values: &["default", "none"],
            default: "default",
        },
        description: "`default`: a revoke by the soloist fails his contract (at least one \
                      under-trick in a solo or abundance), one by an opponent makes it exactly, each \
                      opponent paying (the rulings' default, the text being silent); `none`: revokes \
                      are reported only and the hand is settled on the tricks taken.",
        rule: "auction-solo.md §5, AS-c, AS-e",
    },
];

/// Score codes (§4) beside the shared `contract_made` and `contract_failed`: the over- and
/// under-tricks of a solo or abundance, paid per opponent.
const OVERTRICKS: &str = "overtricks";
const UNDERTRICKS: &str = "undertricks";

static INFO: GameInfo = GameInfo {
    id: "auction-solo",
    name: "Auction Solo",
    tables: crate::engine::Tables(&[TABLE]),
    deck: "52-card pack, A high; 13 cards each, the dealer's last card turned up for the turned suit",
    // No target: net units over the agreed number of deals (`deals`).
    game_target: 0,
    options: OPTIONS,
    rules: "docs/rules/auction-solo.md",
    irregularities: &["revoke"],
    record_errors: &[
        "out_of_turn",
        "unexpected_action",
        "illegal_bid",
        "invalid_trump",
        "card_not_held",
        "card_played_twice",
        "invalid_correct",
        "action_after_end",
        "incomplete_hand",
    ],
    events: &[
        "upcard_turned",
        "all_passed",
        "auction_won",
        "trump_named",
        "hand_exposed",
    ],
    score_codes: &["contract_made", "contract_failed", OVERTRICKS, UNDERTRICKS],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    titles: crate::engine::Titles(&[
        (
            "invalid_trump",
            "Trump that is not a suit, or not the suit the bid fixed",
        ),
        ("auction_won", "Auction won: the soloist plays alone"),
        ("trump_named", "Trump named by the soloist"),
        (OVERTRICKS, "Over-tricks, paid per opponent"),
        (UNDERTRICKS, "Under-tricks, paid per opponent"),
    ]),
};

/// What Auction Solo carries from deal to deal besides the net totals.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = AuctionSoloCarried)]
pub struct Carried {
    /// Deals all four passed so far (AS-4, AS-d): they count towards the agreed `deals` but not in
    /// `hands_played`, which counts the hands played to a result.
    #[serde(default)]
    pub passed_out: u32,
}

/// What an Auction Solo adjudication (and its table view) adds.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = AuctionSoloDetails)]
pub struct Details {
    /// This deal's number in the match: deals before it (played and thrown in) + 1 (AS-d).
    pub deal: u32,
    /// The dealer's last card, turned face up (§1).
    pub turned_card: Card,
    /// Its suit, the turned suit (§1, AS-1).
    pub turned_suit: Suit,
    /// The soloist, once the auction is won; `null` before, or when all four passed.
    pub soloist: Option<Seat>,
    /// The contract in words ("abundance 10 in the turned suit"); `null` until the auction is won.
    pub contract_name: Option<String>,
    /// The tricks the soloist must win (13 in a slam); `null` in a misère or before the auction
    /// is won.
    pub tricks_bid: Option<u32>,
    /// The misère ouverte soloist's hand as he exposed it (AS-2); `[]` until exposed, and in any
    /// other contract.
    pub exposed_hand: Vec<Card>,
    /// Tricks taken beyond the bid (negative: short of it), in a solo or abundance settled on the
    /// tricks; `null` otherwise.
    pub over_under: Option<i32>,
    /// What each opponent paid the soloist (negative: what the soloist paid each of them, §4);
    /// `null` until the hand is settled, and in a thrown-in deal.
    pub per_opponent: Option<i32>,
}

/// How the options shape this hand's rules.
#[derive(Clone, Copy, Debug)]
struct Variants {
    /// AS-2 `expose_before_lead`.
    expose_before_lead: bool,
    /// README "Penalties": `revoke_penalty = none` reports revokes without effect.
    penalties: bool,
    /// AS-d: the agreed number of deals (0: none agreed).
    deals: AgreedDeals,
}

impl Variants {
    fn of(options: &Options) -> Variants {
        Variants {
            expose_before_lead: options.flag("expose_before_lead"),
            penalties: options.choice("revoke_penalty") == "default",
            deals: AgreedDeals(options.count("deals")),
        }
    }
}

impl Rules for AuctionSolo {
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
            hand: HandSize::Each(TRICKS),
            counted_by: None,
            parts: &[Holds {
                part: Part::DealersCard,
                what: "the dealer's last card, turned face up: its suit is the turned suit",
                count: Count::Between(1, 1),
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
        let pack = packs::standard52();
        let dealt = deal::check_cards(record, TABLE, &pack)?;
        deal::check_whole_pack(&dealt, &pack)?;
        let dealer = record.dealer;
        let turned = deal::dealer_face_up(record, &dealt, dealer, "the turned card")?;
        let rules = Variants::of(options);
        let carried: Carried = details::read(&before.details, "/match_state")?;
        check_match(&rules, before, &carried)?;
        let mut adj = Adjudication::new(INFO.id, dealer, before, TRICKS);
        adj.tally = PerSide::over(TABLE.sides());
        adj.events.push(Event::new(
            "upcard_turned",
            None,
            dealer,
            vec![turned],
            format!(
                "{dealer} turned his last card, {turned}: {} is the turned suit (§1)",
                turned.suit_unchecked()
            ),
        ));
        let eldest = TABLE.left(dealer);
        Ok(Box::new(Hand {
            rules,
            deal: AgreedDeals::done(before, carried.passed_out) + 1,
            passed_out: carried.passed_out,
            turned,
            phase: Phase::Auction,
            auction: Auction::new(TABLE, eldest, SoloBids, AUCTION),
            won: None,
            trump_open: false,
            exposed: Vec::new(),
            play: TrickPlay::new(TABLE, dealt.hands, eldest),
            revoke: FirstDecides::default(),
            stopped: false,
            over_under: None,
            per_opponent: None,
            adj,
        }))
    }
}

/// A match state no deal can produce is refused (README C14): net totals that do not add up to
/// nothing, or that are not all alike modulo 4 (every payment moves 3 × k to one player and −k
/// to each other: the totals stay congruent modulo 4), or a match whose agreed deals are done.
fn check_match(
    rules: &Variants,
    before: &MatchState,
    carried: &Carried,
) -> Result<(), Vec<FieldError>> {
    let mut errors: Vec<FieldError> = AgreedDeals::check_passed_out(carried.passed_out)
        .into_iter()
        .collect();
    errors.extend(deals::check_net_zero(before, 0, "auction-solo.md §4"));
    let totals: Vec<i64> = TABLE.sides().map(|s| i64::from(before.scores[s])).collect();
    if errors.is_empty() && totals.iter().any(|t| (t - totals[0]).rem_euclid(4) != 0) {
        errors.push(FieldError::new(
            "/match_state/scores".into(),
            format!(
                "net totals {totals:?} cannot be reached: each settlement moves 3 × k to one player and −k to each of the others, so every total leaves the same remainder modulo 4 (§4)"
            ),
        ));
    }
    if errors.is_empty() {
        errors.extend(
            rules
                .deals
                .check_not_over(before, carried.passed_out, "AS-d"),
        );
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// §2 step 2: pass or bid from Eldest.
    Auction,
    /// §2 step 3: the soloist names the trump of an own-suit bid that did not state it.
    Trump,
    Play,
    Over,
}

/// The auction's winner and his contract.
#[derive(Clone, Copy, Debug)]
struct Won {
    soloist: Seat,
    bid: Reading,
}

#[derive(Clone)]
struct Hand {
    rules: Variants,
    /// This deal's number in the match (AS-d).
    deal: u32,
    passed_out: u32,
    turned: Card,
    phase: Phase,
    auction: Auction<SoloBids>,
    won: Option<Won>,
    /// AS-b, AS-f: the trump is known (stated, or the turned suit) and the soloist may still
    /// name it before the first card.
    trump_open: bool,
    exposed: Vec<Card>,
    play: TrickPlay,
    /// §5 DEFAULT, README C7: the first established revoke decides the contract.
    revoke: FirstDecides,
    /// AS-e: a deciding revoke ended the hand at the end of its trick.
    stopped: bool,
    over_under: Option<i32>,
    per_opponent: Option<i32>,
    adj: Adjudication,
}

fn judge(trick: &Trick, hand: CardSet, card: Card) -> Option<Fault> {
    must_follow_suit(TABLE, "auction-solo.md §3", trick, hand, card)
}

impl Hand {
    fn won(&self) -> Won {
        self.won.expect("the auction is won")
    }

    /// The seat due to act (the player to lead, when the soloist may still name a known trump).
    fn due(&self) -> Option<Seat> {
        match self.phase {
            Phase::Auction => self.auction.due(),
            Phase::Trump => Some(self.won().soloist),
            Phase::Play => self.play.to_play(),
            Phase::Over => None,
        }
    }

    /// The seats that may act: the seat due, and the soloist while he may still name a known
    /// trump.
    fn to_act(&self) -> Vec<Seat> {
        let mut to_act: Vec<Seat> = self.due().into_iter().collect();
        if self.trump_open {
            let soloist = self.won().soloist;
            if !to_act.contains(&soloist) {
                to_act.push(soloist);
            }
        }
        to_act
    }

    fn what_is_due(&self) -> String {
        let seat = self.due().map_or(String::new(), |s| s.to_string());
        match self.phase {
            Phase::Auction => format!("{seat} passes or bids (§3)"),
            Phase::Trump => format!(
                "{seat}, the soloist, names the trump of his {} (§2 step 3)",
                self.won().bid
            ),
            Phase::Play => format!("{seat} plays to trick {}", self.play.trick.number),
            Phase::Over => self.over().into(),
        }
    }

    fn over(&self) -> &'static str {
        if self.adj.outcome == Outcome::Void {
            "all four passed: the deal is thrown in (AS-4)"
        } else if self.stopped {
            "a revoke decided the hand (AS-e)"
        } else {
            "all thirteen tricks have been played"
        }
    }

    /// README C11, C12: an action that does not fit the phase.
    fn out_of_phase(&self, index: usize, action: &Action<Verb>) -> RecordError {
        RecordError::misfit(index, action, self.due(), &self.what_is_due())
    }

    /// §3: a call; AS-f: a malformed bid from the seat due is `unexpected_action` (the seat is
    /// checked first, README C12), one not higher than the standing bid `illegal_bid`.
    fn call(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        if let Verb::Bid(bid) = &action.kind
            && self.auction.due() == Some(action.seat)
            && let Err(why) = bid.read()
        {
            return Err(RecordError::unexpected(
                index,
                action,
                format!("a malformed bid: {why} (AS-f)"),
            ));
        }
        match self.auction.apply(index, action)? {
            None => {}
            Some(End::Won { declarer, bid }) => {
                let bid = bid.read().expect("the auction takes well-formed bids only");
                self.contract(index, declarer, bid);
            }
            Some(End::Passed) => {
                self.adj.outcome = Outcome::Void;
                self.phase = Phase::Over;
                self.adj.events.push(Event::new(
                    "all_passed",
                    Some(index),
                    action.seat,
                    Vec::new(),
                    "all four passed: the deal is thrown in, it counts as a deal, and the next player deals (§3, AS-4, AS-d)".into(),
                ));
            }
            Some(End::Compelled { .. }) => unreachable!("nobody is compelled to bid (§3)"),
        }
        Ok(())
    }

    /// The auction is won (§2 step 3, §3): the contract, its trump where known, the opening lead.
    fn contract(&mut self, index: usize, soloist: Seat, bid: Reading) {
        self.won = Some(Won { soloist, bid });
        let mut contract = Contract::new(soloist, TABLE.side(soloist));
        contract.bid = Some(serde_json::to_value(self.auction_bid(bid)).expect("a bid"));
        contract.target = bid.kind.tricks().map(i32::from);
        self.adj.contract = Some(contract);
        self.adj
            .set_camps(TABLE, "soloist", &[soloist], "opponents");
        // §3: trump as the bid fixes it: the turned suit, a stated suit, none; or named next.
        let turned = self.turned.suit_unchecked();
        let known = match bid.kind {
            Kind::Slam => Some(turned),
            k if k.own_trump() && bid.turned => Some(turned),
            k if k.own_trump() => bid.suit,
            _ => None,
        };
        self.adj.trump = known;
        self.trump_open = known.is_some();
        // §3, AS-3: Eldest leads, except the no-trump slam, which the soloist leads.
        let leader = if bid.kind == Kind::NoTrumpSlam {
            soloist
        } else {
            TABLE.left(self.adj.dealer)
        };
        self.play.lead_next(leader);
        let trump = match (known, bid.kind.own_trump()) {
            (Some(s), _) => format!("{s} is trump"),
            (None, true) => format!("{soloist} names the trump"),
            (None, false) => "no trump".into(),
        };
        self.adj.events.push(Event::new(
            "auction_won",
            Some(index),
            soloist,
            Vec::new(),
            format!(
                "{soloist} plays {bid} alone against the other three; {trump}; {leader} leads (§3)"
            ),
        ));
        self.phase = if bid.kind.own_trump() && known.is_none() {
            Phase::Trump
        } else {
            Phase::Play
        };
        if bid.kind == Kind::MisereOuverte && self.rules.expose_before_lead {
            self.expose(index);
        }
    }

    /// The winning bid as the record called it, for the contract.
    fn auction_bid(&self, bid: Reading) -> Bid {
        let mut b = Bid::of(bid.kind, bid.turned);
        b.suit = bid.suit.map(|s| Called(s.letter().to_string()));
        b
    }

    /// §2 step 3, AS-b, AS-f: the soloist's trump.
    fn name_trump(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        called: &Called,
    ) -> Result<(), RecordError> {
        let Won { soloist, bid } = self.won();
        let suit: Suit = called.0.parse().map_err(|e: String| {
            RecordError::on("invalid_trump", index, action, format!("{e} (AS-f)"))
        })?;
        if let Some(fixed) = self.adj.trump
            && fixed != suit
        {
            let why = if bid.turned || bid.kind == Kind::Slam {
                format!("the bid was in the turned suit, {fixed}")
            } else {
                format!("the bid stated {fixed}")
            };
            return Err(RecordError::on(
                "invalid_trump",
                index,
                action,
                format!("{soloist} names {suit}, but {why} (AS-f)"),
            ));
        }
        self.adj.trump = Some(suit);
        self.trump_open = false;
        self.phase = Phase::Play;
        self.adj.events.push(Event::new(
            "trump_named",
            Some(index),
            soloist,
            Vec::new(),
            format!("{soloist} names {suit} trump for his {bid} (§2 step 3)"),
        ));
        Ok(())
    }

    /// AS-2, AS-d: the misère ouverte soloist's hand is exposed; it changes nothing.
    fn expose(&mut self, index: usize) {
        let soloist = self.won().soloist;
        self.exposed = self.play.hand(soloist).iter().collect();
        let when = if self.adj.tricks.is_empty() {
            "before the opening lead (expose_before_lead)"
        } else {
            "after the first trick"
        };
        self.adj.events.push(Event::new(
            "hand_exposed",
            Some(index),
            soloist,
            self.exposed.clone(),
            format!("{soloist} exposes his hand {when}, as misère ouverte requires (AS-2); it changes nothing (AS-d)"),
        ));
    }

    fn close_trick(&mut self) {
        let winner = self
            .play
            .trick
            .trump_or_led_winner(self.adj.trump, &ORDER)
            .expect("a complete trick");
        let last = self.play.trick.action_index(self.play.trick.len() - 1);
        let (trick, established) = self.play.close_trick(winner);
        self.adj.tally[TABLE.side(winner)].tricks += 1;
        self.adj.tricks.push(TrickReport::new(trick, winner));
        for e in established {
            self.revoke_established(e);
        }
        if self.stopped || self.adj.tricks.len() == TRICKS {
            self.play.stop();
            self.phase = Phase::Over;
        } else if self.adj.tricks.len() == 1
            && self.won().bid.kind == Kind::MisereOuverte
            && self.exposed.is_empty()
        {
            self.expose(last);
        }
    }

    /// §5 DEFAULT, AS-c, AS-e: the first established revoke decides the contract (README C7): the
    /// soloist's fails it, an opponent's makes it exactly. An opponent's, and the soloist's in a
    /// misère or slam, ends the hand at the end of its trick; the soloist's in a solo or abundance
    /// lets play go on, its under-tricks counted at the end.
    fn revoke_established(&mut self, e: Established) {
        let Won { soloist, bid } = self.won();
        let by_soloist = e.seat == soloist;
        let decides = self.rules.penalties
            && self
                .revoke
                .offence(TABLE.side(e.seat), e.action_index, e.fault.code)
                .is_none();
        let ends = decides && !(by_soloist && bid.kind.counts_extra_tricks());
        let base = bid.kind.base();
        let consequence = if !self.rules.penalties {
            "reported only: the option revoke_penalty is none, the hand is settled on the tricks taken".to_string()
        } else if !decides {
            let (side, at) = self.revoke.decided().expect("an earlier revoke decided");
            format!(
                "no further effect: the revoke by {} at action {at} already decided the contract (README C7)",
                side.spoken()
            )
        } else if !by_soloist {
            format!(
                "DEFAULT (text silent): {soloist}'s {bid} is made exactly: each opponent pays him the base amount, {base}, with no over-tricks; the hand ends with this trick (auction-solo.md §5, AS-c, AS-e)"
            )
        } else if ends {
            format!(
                "DEFAULT (text silent): {soloist}'s {bid} fails: he pays each opponent {base}; the hand ends with this trick (auction-solo.md §5, AS-c, AS-e)"
            )
        } else {
            format!(
                "DEFAULT (text silent): {soloist}'s {bid} fails: he pays each opponent {base} and 1 for each trick he is short, at least 1; play goes on and the under-tricks are counted at the end (auction-solo.md §5, AS-c, AS-e)"
            )
        };
        let mut irregularity = e.irregularity(consequence);
        if ends {
            irregularity.effect.decides = Some(Decides::Hand);
            self.stopped = true;
        }
        self.adj.irregularities.push(irregularity);
    }

    /// §4, §5: settles a hand played out or decided by a revoke, or thrown in; then the match.
    fn score(&mut self) {
        let dealer = self.adj.dealer;
        let mut passed_out = self.passed_out;
        if self.adj.outcome == Outcome::Void {
            // AS-4, AS-d: no play, no payment; the deal counts and passes left.
            self.adj.settle();
            passed_out += 1;
        } else {
            let Won { soloist, bid } = self.won();
            let taken = self.adj.tally[TABLE.side(soloist)].tricks as i32;
            let decided = self.revoke.decided();
            let made = match decided {
                Some((offenders, at)) => {
                    let made = offenders != TABLE.side(soloist);
                    // AS-c: an opponent's revoke gives the base amount only; the soloist's costs
                    // at least one under-trick in a solo or abundance.
                    let short = match bid.kind.tricks() {
                        Some(n) if bid.kind.counts_extra_tricks() && !made => {
                            (i32::from(n) - taken).max(1)
                        }
                        _ => 0,
                    };
                    let each = if made { 1 } else { -1 } * (bid.kind.base() + short);
                    self.per_opponent = Some(each);
                    let i = self
                        .adj
                        .irregularities
                        .iter()
                        .position(|r| r.action_index == Some(at))
                        .expect("the deciding revoke is reported");
                    self.adj.penalize(i, TABLE.side(soloist), 3 * each);
                    for o in TABLE.seats().filter(|&s| s != soloist) {
                        self.adj.penalize(i, TABLE.side(o), -each);
                    }
                    made
                }
                None => self.settle_on_tricks(bid, taken),
            };
            if let Some(c) = &mut self.adj.contract {
                c.made = Some(made);
            }
            self.adj.hand_winner = made.then(|| TABLE.side(soloist));
            self.adj.settle();
        }
        let m = &mut self.adj.match_after;
        m.next_dealer = Some(TABLE.left(dealer));
        m.details = details::Details::of(Carried { passed_out });
        // AS-d, AS-g: the agreed deals done, the highest net total wins; a tie at the top, nobody.
        self.rules.deals.close(m, passed_out);
    }

    /// §4: made, each opponent pays the soloist; failed, he pays each; solo and abundance 1 more
    /// per over- or under-trick. Returns whether the contract was made.
    fn settle_on_tricks(&mut self, bid: Reading, taken: i32) -> bool {
        let kind = bid.kind;
        let made = match kind.tricks() {
            Some(n) => taken >= i32::from(n),
            None => taken == 0,
        };
        let sign = if made { 1 } else { -1 };
        let code = if made {
            "contract_made"
        } else {
            "contract_failed"
        };
        self.adj.pay_each_from_each(
            TABLE,
            "opponents",
            "soloist",
            sign * kind.base(),
            ScoreSource::Contract,
            code,
        );
        let mut each = kind.base();
        if let (true, Some(n)) = (kind.counts_extra_tricks(), kind.tricks()) {
            let extra = taken - i32::from(n);
            self.over_under = Some(extra);
            let code = if made { OVERTRICKS } else { UNDERTRICKS };
            self.adj.pay_each_from_each(
                TABLE,
                "opponents",
                "soloist",
                extra,
                ScoreSource::Contract,
                code,
            );
            each += extra.abs();
        }
        self.per_opponent = Some(sign * each);
        made
    }

    fn details(&self) -> Details {
        let won = self.won;
        Details {
            deal: self.deal,
            turned_card: self.turned,
            turned_suit: self.turned.suit_unchecked(),
            soloist: won.map(|w| w.soloist),
            contract_name: won.map(|w| w.bid.to_string()),
            tricks_bid: won.and_then(|w| w.bid.kind.tricks()).map(u32::from),
            exposed_hand: self.exposed.clone(),
            over_under: self.over_under,
            per_opponent: self.per_opponent,
        }
    }

    fn phase_name(&self) -> &'static str {
        match self.phase {
            Phase::Auction => "auction",
            Phase::Trump => "trump",
            Phase::Play => "play",
            Phase::Over => "over",
        }
    }
}

impl HandState<Verb> for Hand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        match (self.phase, &action.kind) {
            // AS-e, README C9, C6: after a deciding revoke, later actions are ignored.
            (Phase::Over, _) if self.stopped => {
                let ignored = self
                    .revoke
                    .ignores(index, PENALTY_RULE)
                    .expect("a revoke decided the hand");
                self.adj.ignored_actions.push(ignored);
                Ok(())
            }
            (Phase::Auction, _) => self.call(index, action),
            (Phase::Trump, Verb::Trump(called)) if seat == self.won().soloist => {
                self.name_trump(index, action, called)
            }
            (Phase::Play, Verb::Trump(called)) if self.trump_open && seat == self.won().soloist => {
                self.name_trump(index, action, called)
            }
            (Phase::Play, Verb::Correct(card)) => self.play.correct(index, seat, *card, judge),
            (Phase::Play, Verb::Play(card)) => {
                self.play.play_judged(index, seat, *card, judge)?;
                self.trump_open = false;
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
        view.trick_number = self.locus().trick_number;
        view
    }

    /// No trick is under way before the trump is made, nor on a deal thrown in: the table shows
    /// no trick number.
    fn locus(&self) -> Locus {
        let playing = self.phase == Phase::Play;
        Locus::of_play_once_begun(&self.play, self.to_act().is_empty(), playing)
    }

    /// The auction offers each rank once (docs/games/auction-solo.md): a bid stating its own suit
    /// (AS-b) stands for the same bid without it, and the slam left unqualified is the slam in
    /// the turned suit (AS-1).
    fn offered_as(&self, action: Action<Verb>) -> Action<Verb> {
        match action.kind {
            Verb::Bid(bid) if self.phase == Phase::Auction => {
                let in_turned_suit = match bid.kind.as_str() {
                    "slam" => Some(true),
                    _ => bid.in_turned_suit,
                };
                Action {
                    seat: action.seat,
                    kind: Verb::Bid(Bid {
                        suit: None,
                        in_turned_suit,
                        ..bid
                    }),
                }
            }
            kind => Action { kind, ..action },
        }
    }

    fn candidates(&self) -> Vec<Action<Verb>> {
        let trumps = |seat: Seat| {
            Suit::ALL.into_iter().map(move |s| Action {
                seat,
                kind: Verb::Trump(Called(s.letter().to_string())),
            })
        };
        match self.phase {
            Phase::Auction => self.auction.candidates(),
            Phase::Trump => trumps(self.won().soloist).collect(),
            Phase::Play => {
                let mut out = self.play.candidates(Verb::Play, Verb::Correct);
                if self.trump_open {
                    out.extend(trumps(self.won().soloist));
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
            // AS-e: every hand is played to trick 13 unless a revoke decided it.
            _ => Ending::Open {
                due: self.due(),
                detail: format!(
                    "the record stops before the hand is over ({} of {TRICKS} tricks played): {}",
                    self.adj.tricks.len(),
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

    fn bid(v: serde_json::Value) -> Bid {
        serde_json::from_value(v).unwrap()
    }

    fn rank(v: serde_json::Value) -> (u8, bool) {
        bid(v).read().unwrap().rank()
    }

    /// AS-1, AS-a: 'N in the turned suit' sits just above 'N in own suit', below N + 1; a stated
    /// suit, even the turned one, ranks as own suit.
    #[test]
    fn one_ladder_with_the_turned_suit_just_above() {
        use serde_json::json;
        let solo6 = rank(json!({"kind": "solo", "tricks": 6}));
        let solo6t = rank(json!({"kind": "solo", "tricks": 6, "in_turned_suit": true}));
        let solo7 = rank(json!({"kind": "solo", "tricks": 7, "suit": "H"}));
        assert!(solo6 < solo6t && solo6t < solo7);
        assert_eq!(
            rank(json!({"kind": "solo", "tricks": 6, "suit": "S"})),
            solo6
        );
        let misere = rank(json!({"kind": "misere"}));
        let solo8t = rank(json!({"kind": "solo", "tricks": 8, "in_turned_suit": true}));
        let ab9 = rank(json!({"kind": "abundance", "tricks": 9}));
        assert!(solo8t < misere && misere < ab9);
        let ab12t = rank(json!({"kind": "abundance", "tricks": 12, "in_turned_suit": true}));
        let ouverte = rank(json!({"kind": "misere_ouverte"}));
        let nt = rank(json!({"kind": "no_trump_slam"}));
        let slam = rank(json!({"kind": "slam"}));
        assert!(ab12t < ouverte && ouverte < nt && nt < slam);
        let offered: Vec<(u8, bool)> = SoloBids
            .bids()
            .iter()
            .map(|b| b.read().unwrap().rank())
            .collect();
        assert_eq!(offered.len(), 20);
        assert!(offered.windows(2).all(|w| w[0] < w[1]));
    }

    /// AS-f: what makes a bid malformed.
    #[test]
    fn malformed_bids() {
        use serde_json::json;
        for bad in [
            json!({"kind": "grand"}),
            json!({"kind": "solo"}),
            json!({"kind": "solo", "tricks": 9}),
            json!({"kind": "abundance", "tricks": 8}),
            json!({"kind": "abundance", "tricks": 13}),
            json!({"kind": "misere", "tricks": 5}),
            json!({"kind": "misere", "in_turned_suit": true}),
            json!({"kind": "no_trump_slam", "in_turned_suit": true}),
            json!({"kind": "slam", "in_turned_suit": false}),
            json!({"kind": "misere_ouverte", "suit": "S"}),
            json!({"kind": "solo", "tricks": 5, "in_turned_suit": true, "suit": "S"}),
            json!({"kind": "solo", "tricks": 5, "suit": "X"}),
        ] {
            assert!(bid(bad.clone()).read().is_err(), "{bad}");
        }
        assert!(
            bid(json!({"kind": "slam", "in_turned_suit": true}))
                .read()
                .is_ok()
        );
        assert!(
            bid(json!({"kind": "misere", "in_turned_suit": false}))
                .read()
                .is_ok()
        );
    }

    /// §4: the base amounts.
    #[test]
    fn base_amounts() {
        assert_eq!(
            [
                Kind::Solo(5),
                Kind::Misere,
                Kind::Abundance(12),
                Kind::MisereOuverte,
                Kind::NoTrumpSlam,
                Kind::Slam
            ]
            .map(Kind::base),
            [2, 4, 6, 8, 12, 12]
        );
    }
}
