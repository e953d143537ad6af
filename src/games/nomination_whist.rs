//! Nomination Whist (`docs/rules/nomination-whist.md`): four players, each for himself; 52 cards,
//! A high, 13 each. An auction of trick numbers, 7 to 13, passes final, from Eldest; the high
//! bidder names trump and a card, and the card's holder is his secret ally for the hand (made known
//! when he plays it; the bidder's own card makes it a solo). The contracting side needs the number
//! bid; each of its members is paid the bid by one opponent (a solo, by each of the three), a slam
//! bid 26; an unbid slam costs 13 instead.

use crate::cards::{Card, CardSet, Suit, packs};
use crate::details;
use crate::engine::auction::{Auction, Conduct, End, NoBid, Number, Numbers, Rounds};
use crate::engine::deal::{HandSize, Setup};
use crate::engine::deals::AgreedDeals;
use crate::engine::{
    Adjudication, Called, Contract, Decides, Ending, Established, Event, Fault, FieldError,
    FirstDecides, GameInfo, HandState, Locus, MatchState, OptionKind, OptionSpec, Options, Outcome,
    PerSide, RankOrder, RecordError, Rules, ScoreSource, Seat, Table, TableView, Trick, TrickPlay,
    TrickReport, deal, must_follow_suit,
};
use crate::record::{Action, HandRecord, Yes};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub struct NominationWhist;

/// §1: four players, each for himself; the bidder and his ally are the hand's camps.
const TABLE: Table = Table::solo(4);
const TRICKS: usize = 13;
/// §3: A K Q J T 9 … 2 in every suit.
const ORDER: RankOrder = RankOrder::ACE_HIGH;
/// §2 step 2: bids of 7 to 13 tricks.
const BIDS: Numbers = Numbers { low: 7, high: 13 };
/// §4: a slam bid wins or loses 26 in place of 13; an unbid slam costs 13 per opponent.
const SLAM_BID: i32 = 26;
const UNBID_SLAM: i32 = 13;
const RULE: &str = "nomination-whist.md §3";

crate::verbs! {
    /// What a record of Nomination Whist can say.
    pub enum Verb in "Nomination Whist" {
        Pass(Yes) = "pass": "A pass in the auction (value `true`): final, the seat is not asked again (NW-a).",
        Bid(Number) = "bid": "A bid of a number of tricks, 7 to 13, higher than the standing bid (§3).",
        Trump(Called) = "trump": "The high bidder names trump: S, H, D or C; there is no no-trump (NW-4). Before or after the named card (NW-c).",
        NamedCard(Called) = "named_card": "The high bidder names a card (any card, a trump included, NW-c): its holder is his ally; his own card makes it a solo (§3).",
        Play(Card) = "play": "A card played to the current trick.",
        Correct(Card) = "correct": "Replaces the seat's card in the current, incomplete trick (a revoke correction).",
    }
}

crate::auction_calls!(Verb, Number);

const AUCTION: Conduct<Number> = Conduct {
    rounds: Rounds::PassesFinal,
    equal: None,
    no_bid: NoBid::Passed,
    rule: "nomination-whist.md §3, NW-a",
};

static OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "first_lead",
        kind: OptionKind::Choice {
            values: &["eldest", "bidder_leads"],
            default: "eldest",
        },
        description: "Who leads to the first trick: Eldest, the dealer's left (`eldest`, the \
                      whist default), or the high bidder (`bidder_leads`).",
        rule: "nomination-whist.md §6 NW-3",
    },
    OptionSpec {
        name: "deals",
        kind: OptionKind::Count {
            min: 0,
            max: 10_000,
            default: 0,
        },
        description: "The agreed number of deals, passed-out deals included (NW-c): when they are \
                      done the match is over and the highest net total wins (none on a tie for \
                      highest, NW-f). 0: not agreed, the match never ends by itself.",
        rule: "nomination-whist.md §4, NW-c, NW-f",
    },
    OptionSpec {
        name: "revoke_penalty",
        kind: OptionKind::Choice {
            values: &["default", "none"],
            default: "default",
        },
        description: "`default`: an established revoke decides the hand at the end of its trick: \
                      by the bidder or his ally the contract fails at full value, by an opponent \
                      it is made as a plain contract (the rulings' default, the text being silent; \
                      NW-b, NW-d); `none`: revokes are reported only and the hand is played out.",
        rule: "nomination-whist.md §5, NW-b, NW-d",
    },
];

/// Score code (§4): the unbid slam, paid by the contracting side.
const UNBID_SLAM_CODE: &str = "unbid_slam";
/// The camps of a hand (§1, §4): the bidder (with his ally, once known) and the opponents.
const BIDDER: &str = "bidder";
const OPPONENTS: &str = "opponents";

static INFO: GameInfo = GameInfo {
    id: "nomination-whist",
    name: "Nomination Whist",
    tables: crate::engine::Tables(&[TABLE]),
    deck: "52-card pack, A high; 13 cards each",
    // No target: net units over the agreed number of deals (`deals`).
    game_target: 0,
    options: OPTIONS,
    rules: "docs/rules/nomination-whist.md",
    irregularities: &["revoke"],
    record_errors: &[
        "out_of_turn",
        "unexpected_action",
        "illegal_bid",
        "invalid_trump",
        "invalid_named_card",
        "card_not_held",
        "card_played_twice",
        "invalid_correct",
        "action_after_end",
        "incomplete_hand",
    ],
    events: &[
        "all_passed",
        "trump_named",
        "card_named",
        "ally_revealed",
        "solo_revealed",
    ],
    score_codes: &["contract_made", "contract_failed", UNBID_SLAM_CODE],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    titles: crate::engine::Titles(&[
        ("invalid_trump", "Trump that is not one of the four suits"),
        (
            "invalid_named_card",
            "Named card that is not a card of the pack",
        ),
        ("trump_named", "Trump named by the high bidder"),
        ("card_named", "Card named: its holder is the ally"),
        ("ally_revealed", "Ally revealed by the named card"),
        ("solo_revealed", "Named card played by the bidder: a solo"),
        (UNBID_SLAM_CODE, "Slam made unbid: 13 paid per opponent"),
    ]),
};

/// What Nomination Whist carries from deal to deal besides the net units.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = NominationWhistCarried)]
pub struct Carried {
    /// Deals all four passed so far (NW-c): they count towards the agreed `deals` but not in
    /// `hands_played`, which counts the hands played to a result.
    #[serde(default)]
    pub passed_out: u32,
}

/// What a Nomination Whist adjudication (and table view) adds.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = NominationWhistDetails)]
pub struct Details {
    /// This deal's number in the match: deals before it (played and passed out) + 1 (NW-c).
    pub deal: u32,
    /// The card the high bidder named; `null` until named.
    pub named_card: Option<Card>,
    /// The bidder's ally, the named card's holder (derived from the deal, §3); `null` until the
    /// card is named, and in a solo. In a table view, `null` until he plays the named card.
    pub ally: Option<Seat>,
    /// The bidder named a card he holds himself and plays alone (§3); `null` until the card is
    /// named. In a table view, `null` until he plays it.
    pub solo: Option<bool>,
    /// The action that played the named card and so made the ally (or the solo) known; `null`
    /// before.
    pub revealed_at: Option<usize>,
    /// The tricks of the contracting side (the bidder and his ally, §4); `null` before the play
    /// (in a table view, until the named card is played).
    pub contract_tricks: Option<u32>,
}

/// How the options shape this hand's rules.
#[derive(Clone, Copy, Debug)]
struct Variants {
    /// NW-3 `first_lead = bidder_leads`.
    bidder_leads: bool,
    /// README "Penalties": `revoke_penalty = none` reports revokes without effect.
    penalties: bool,
    /// NW-c: the agreed number of deals (0: none agreed).
    deals: AgreedDeals,
}

impl Variants {
    fn of(options: &Options) -> Variants {
        Variants {
            bidder_leads: options.choice("first_lead") == "bidder_leads",
            penalties: options.choice("revoke_penalty") == "default",
            deals: AgreedDeals(options.count("deals")),
        }
    }
}

impl Rules for NominationWhist {
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
        // README C14: net balances paid between players add up to 0; the agreed deals not done.
        rules
            .deals
            .check_match(before, carried.passed_out, 0, "§4", "NW-c")?;
        let dealer = record.dealer;
        let eldest = TABLE.left(dealer);
        let mut adj = Adjudication::new(INFO.id, dealer, before, TRICKS);
        adj.tally = PerSide::over(TABLE.sides());
        Ok(Box::new(Hand {
            rules,
            deal: AgreedDeals::done(before, carried.passed_out) + 1,
            passed_out: carried.passed_out,
            phase: Phase::Auction,
            auction: Auction::new(TABLE, eldest, BIDS, AUCTION),
            bid: None,
            named: None,
            ally: None,
            revealed_at: None,
            play: TrickPlay::new(TABLE, dealt.hands, eldest),
            revoke: FirstDecides::default(),
            adj,
        }))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// §2 step 2: pass or bid from Eldest.
    Auction,
    /// §2 step 3: the high bidder names trump and a card, in either order (NW-c).
    Naming,
    Play,
    Over,
}

#[derive(Clone)]
struct Hand {
    rules: Variants,
    /// This deal's number in the match (NW-c).
    deal: u32,
    passed_out: u32,
    phase: Phase,
    auction: Auction<Numbers>,
    /// The high bidder and his bid, once the auction is won.
    bid: Option<(Seat, u8)>,
    /// The named card and its holder (the bidder himself in a solo).
    named: Option<(Card, Seat)>,
    /// The ally, once the named card is played (or, at the settlement, derived from the deal).
    ally: Option<Seat>,
    revealed_at: Option<usize>,
    play: TrickPlay,
    /// §5 DEFAULT, README C7, C9: the first established revoke decides the hand.
    revoke: FirstDecides,
    adj: Adjudication,
}

impl Hand {
    fn judge(&self) -> impl Fn(&Trick, CardSet, Card) -> Option<Fault> + use<> {
        |trick, hand, card| must_follow_suit(TABLE, RULE, trick, hand, card)
    }

    fn bidder(&self) -> Seat {
        self.bid.expect("the auction is won").0
    }

    /// The seats of the contracting side, derived from the deal (§3): the bidder, and the named
    /// card's holder unless it is the bidder himself.
    fn contracting(&self) -> Vec<Seat> {
        let bidder = self.bidder();
        let holder = self.named.map(|(_, h)| h).filter(|&h| h != bidder);
        std::iter::once(bidder).chain(holder).collect()
    }

    /// The seat due to act.
    fn due(&self) -> Option<Seat> {
        match self.phase {
            Phase::Auction => self.auction.due(),
            Phase::Naming => self.bid.map(|(s, _)| s),
            Phase::Play => self.play.to_play(),
            Phase::Over => None,
        }
    }

    fn what_is_due(&self) -> String {
        let seat = self.due().map_or(String::new(), |s| s.to_string());
        match self.phase {
            Phase::Auction => format!("{seat} passes or bids (§3, NW-a)"),
            Phase::Naming => format!(
                "{seat}, the high bidder, names {} (§2 step 3, NW-c)",
                match (self.adj.trump, self.named) {
                    (None, None) => "trump and a card",
                    (None, Some(_)) => "trump",
                    _ => "a card",
                }
            ),
            Phase::Play => format!("{seat} plays to trick {}", self.play.trick.number),
            Phase::Over => self.over().into(),
        }
    }

    fn over(&self) -> &'static str {
        if self.adj.outcome == Outcome::Void {
            "all four passed: the hand is not played"
        } else {
            "all thirteen tricks have been played"
        }
    }

    /// README C11, C12: an action that does not fit the phase.
    fn out_of_phase(&self, index: usize, action: &Action<Verb>) -> RecordError {
        RecordError::misfit(index, action, self.due(), &self.what_is_due())
    }

    /// §3, NW-a: pass or bid; the high bidder names next, four passes throw the deal in.
    fn call(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        match self.auction.apply(index, action)? {
            None => {}
            Some(End::Won { declarer, bid }) => {
                self.bid = Some((declarer, bid.0));
                let mut contract = Contract::new(declarer, TABLE.side(declarer));
                contract.bid = Some(bid.0.into());
                contract.target = Some(bid.0.into());
                self.adj.contract = Some(contract);
                self.adj.set_camps(TABLE, BIDDER, &[declarer], OPPONENTS);
                self.phase = Phase::Naming;
            }
            Some(End::Passed) => {
                self.adj.outcome = Outcome::Void;
                self.phase = Phase::Over;
                self.adj.events.push(Event::new(
                    "all_passed",
                    Some(index),
                    action.seat,
                    Vec::new(),
                    "all four passed: the cards are thrown in and the next dealer deals (§3); the deal counts towards the agreed deals (NW-c)".into(),
                ));
            }
            Some(End::Compelled { .. }) => unreachable!("nobody is compelled to bid (§3)"),
        }
        Ok(())
    }

    /// §2 step 3, NW-4, NW-e: trump is one of the four suits.
    fn name_trump(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        called: &Called,
    ) -> Result<(), RecordError> {
        let bidder = self.bidder();
        if self.adj.trump.is_some() {
            return Err(RecordError::unexpected(
                index,
                action,
                format!("{bidder} has named trump already (NW-e)"),
            ));
        }
        let trump: Suit = called.0.parse().map_err(|e: String| {
            RecordError::on(
                "invalid_trump",
                index,
                action,
                format!("{e}; there is no no-trump (NW-4, NW-e)"),
            )
        })?;
        self.adj.trump = Some(trump);
        self.adj.events.push(Event::new(
            "trump_named",
            Some(index),
            bidder,
            Vec::new(),
            format!("{bidder} names {trump} trump (§2 step 3)"),
        ));
        self.named_both();
        Ok(())
    }

    /// §2 step 3, §3, NW-c, NW-e: any card of the pack; its holder is the ally.
    fn name_card(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        called: &Called,
    ) -> Result<(), RecordError> {
        let bidder = self.bidder();
        if self.named.is_some() {
            return Err(RecordError::unexpected(
                index,
                action,
                format!("{bidder} has named a card already (NW-e)"),
            ));
        }
        let card = called
            .0
            .parse::<Card>()
            .ok()
            .filter(|&c| packs::standard52().cards.contains(c))
            .ok_or_else(|| {
                RecordError::on(
                    "invalid_named_card",
                    index,
                    action,
                    format!(
                        "'{}' is not a card of the 52-card pack: the named card is one of them (NW-e)",
                        called.0
                    ),
                )
            })?;
        let holder = TABLE
            .seats()
            .find(|&s| self.play.hand(s).contains(card))
            .expect("every card of the pack is dealt");
        self.named = Some((card, holder));
        let whose = if holder == bidder {
            format!("{bidder} holds it himself and plays alone, a solo (§3)")
        } else {
            format!("{holder} holds it and is his ally, known when he plays it (§3)")
        };
        self.adj.events.push(Event::new(
            "card_named",
            Some(index),
            bidder,
            vec![card],
            format!("{bidder} names {card}: {whose}"),
        ));
        self.named_both();
        Ok(())
    }

    /// Both named (NW-c): play begins, Eldest leading (NW-3: the bidder under `bidder_leads`).
    fn named_both(&mut self) {
        if self.adj.trump.is_none() || self.named.is_none() {
            return;
        }
        if self.rules.bidder_leads {
            self.play.lead_next(self.bidder());
        }
        self.phase = Phase::Play;
    }

    /// §3: the named card played makes its holder known, the ally (or the bidder alone).
    fn reveal(&mut self, index: usize, seat: Seat, card: Card) {
        let Some((named, holder)) = self.named else {
            return;
        };
        if card != named || seat != holder || self.revealed_at.is_some() {
            return;
        }
        self.revealed_at = Some(index);
        let bidder = self.bidder();
        if holder == bidder {
            self.adj.events.push(Event::new(
                "solo_revealed",
                Some(index),
                bidder,
                vec![card],
                format!("{bidder} plays {card}, the card he named: he plays alone (§3)"),
            ));
        } else {
            self.ally = Some(holder);
            self.adj.reveal_ally(BIDDER, holder, index);
            self.adj.events.push(Event::new(
                "ally_revealed",
                Some(index),
                holder,
                vec![card],
                format!("{holder} plays {card}, the named card: he is {bidder}'s ally (§3)"),
            ));
        }
    }

    fn close_trick(&mut self) {
        let winner = self
            .play
            .trick
            .trump_or_led_winner(self.adj.trump, &ORDER)
            .expect("a complete trick of suited cards");
        let (trick, established) = self.play.close_trick(winner);
        self.adj.tally[TABLE.side(winner)].tricks += 1;
        self.adj.tricks.push(TrickReport::new(trick, winner));
        for e in established {
            self.revoke_established(e);
        }
        // README C9, NW-d: a deciding revoke ends the hand as surely as the thirteenth trick.
        if self.adj.tricks.len() == TRICKS || self.revoke.decided().is_some() {
            self.play.stop();
            self.phase = Phase::Over;
        }
    }

    /// §5 DEFAULT, NW-b, NW-d: the first established revoke decides the hand (README C7); later
    /// ones change nothing.
    fn revoke_established(&mut self, e: Established) {
        let (seat, at) = (e.seat, e.action_index);
        let by_contracting = self.contracting().contains(&seat);
        let consequence = if !self.rules.penalties {
            "reported only: the option revoke_penalty is none, the hand is played out and scored on the tricks (NW-d)".to_string()
        } else if let Some(c) = self.revoke.offence(TABLE.side(seat), at, e.fault.code) {
            c
        } else {
            let n = self.bid.expect("the auction is won").1;
            if by_contracting {
                format!(
                    "DEFAULT (text silent): {seat} is of the contracting side, so the contract of {n} fails at full value ({} per member of the contracting side); the hand is decided at the end of this trick (§5, NW-b, NW-d)",
                    contract_value(n)
                )
            } else {
                format!(
                    "DEFAULT (text silent): {seat} is an opponent, so the contract of {n} is made as a plain contract ({n} per member of the contracting side, never a slam's 26 nor the unbid slam); the hand is decided at the end of this trick (§5, NW-b, NW-d)"
                )
            }
        };
        let mut irregularity = e.irregularity(consequence);
        if self.revoke.decided().map(|(_, a)| a) == Some(at) && self.rules.penalties {
            irregularity.effect.decides = Some(Decides::Hand);
        }
        self.adj.irregularities.push(irregularity);
    }

    /// §4: settles a hand played out or decided by a revoke (or passed out), and the match (NW-c).
    fn score(&mut self) {
        let dealer = self.adj.dealer;
        let mut passed_out = self.passed_out;
        if self.adj.outcome == Outcome::Void {
            // No play, no payment; the deal passes left and counts towards `deals` (NW-c).
            self.adj.settle();
            passed_out += 1;
        } else {
            self.settle();
        }
        let m = &mut self.adj.match_after;
        m.next_dealer = Some(TABLE.left(dealer));
        m.details = details::Details::of(Carried { passed_out });
        // NW-c, NW-f: the agreed deals done, the highest net total wins; a tie at the top, nobody.
        self.rules.deals.close(m, passed_out);
    }

    /// §4, §5 DEFAULT: each member of the contracting side is paid by (or pays) one opponent, a
    /// solo bidder each of the three.
    fn settle(&mut self) {
        let (bidder, n) = self.bid.expect("the auction is won");
        let side = self.contracting();
        // The ally is of the contracting side whether or not his card was played (§3: derived
        // from the deal), so the settlement names him.
        if side.len() == 2 && self.ally.is_none() {
            self.adj.set_camps(TABLE, BIDDER, &side, OPPONENTS);
        }
        let tricks: u32 = side
            .iter()
            .map(|&s| self.adj.tally[TABLE.side(s)].tricks)
            .sum();
        let pay = |adj: &mut Adjudication, units: i32, source, code| {
            if side.len() == 1 {
                adj.pay_each_from_each(TABLE, OPPONENTS, BIDDER, units, source, code);
            } else {
                adj.pay_in_pairs(TABLE, OPPONENTS, BIDDER, units, source, code);
            }
        };
        let decided = self.revoke.decided().filter(|_| self.rules.penalties);
        let made = match decided {
            // NW-b: by the contracting side, failed at full value; by an opponent, made as a
            // plain contract (n, never 26 nor the unbid slam).
            Some((offenders, at)) => {
                let i = self
                    .adj
                    .irregularities
                    .iter()
                    .position(|i| i.action_index == Some(at))
                    .expect("the deciding revoke is reported");
                let made = !side.iter().any(|&s| TABLE.side(s) == offenders);
                let units = if made {
                    i32::from(n)
                } else {
                    -contract_value(n)
                };
                self.adj
                    .penalize_payments(i, |adj, source, code| pay(adj, units, source, code));
                Some(made)
            }
            // §4, NW-2: all thirteen taken on a lower bid: the contracting side pays 13 instead.
            None if tricks as usize == TRICKS && usize::from(n) < TRICKS => {
                pay(
                    &mut self.adj,
                    -UNBID_SLAM,
                    ScoreSource::Contract,
                    UNBID_SLAM_CODE,
                );
                None
            }
            // §4, NW-1: made with n or more (overtricks earn nothing), else failed.
            None => {
                let made = tricks >= u32::from(n);
                let (units, code) = if made {
                    (contract_value(n), "contract_made")
                } else {
                    (-contract_value(n), "contract_failed")
                };
                pay(&mut self.adj, units, ScoreSource::Contract, code);
                Some(made)
            }
        };
        self.adj.contract.as_mut().expect("the auction is won").made = Some(made == Some(true));
        self.adj.hand_winner = (made == Some(true)).then(|| TABLE.side(bidder));
        self.adj.settle();
    }

    fn details(&self, view: bool) -> Details {
        let named = self.named;
        let solo = named.map(|(_, holder)| Some(holder) == self.bid.map(|(s, _)| s));
        let revealed = self.revealed_at.is_some();
        let hidden = view && !revealed;
        let played = !self.adj.tricks.is_empty() || self.phase == Phase::Over;
        Details {
            deal: self.deal,
            named_card: named.map(|(c, _)| c),
            ally: if hidden {
                None
            } else {
                named
                    .filter(|_| solo == Some(false))
                    .map(|(_, holder)| holder)
            },
            solo: if hidden { None } else { solo },
            revealed_at: self.revealed_at,
            // Before the named card is played the table cannot count the side's tricks.
            contract_tricks: (named.is_some() && played && !hidden).then(|| {
                self.contracting()
                    .iter()
                    .map(|&s| self.adj.tally[TABLE.side(s)].tricks)
                    .sum()
            }),
        }
    }

    fn phase_name(&self) -> &'static str {
        match self.phase {
            Phase::Auction => "auction",
            Phase::Naming => "naming",
            Phase::Play => "play",
            Phase::Over => "over",
        }
    }
}

/// §4: what a contract of `n` tricks is worth to each member of the contracting side: `n`, a
/// slam bid 26.
fn contract_value(n: u8) -> i32 {
    if usize::from(n) == TRICKS {
        SLAM_BID
    } else {
        i32::from(n)
    }
}

impl HandState<Verb> for Hand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        if self.phase == Phase::Over
            && let Some(ignored) = self.revoke.ignores(index, "nomination-whist.md §5, NW-d")
        {
            self.adj.ignored_actions.push(ignored);
            return Ok(());
        }
        match (self.phase, &action.kind) {
            (Phase::Auction, _) => self.call(index, action),
            (Phase::Play, Verb::Correct(card)) => {
                let judge = self.judge();
                self.play.correct(index, seat, *card, judge)
            }
            // README C12, NW-e: the seat is checked before the verb.
            (_, _) if self.due() != Some(seat) || matches!(action.kind, Verb::Correct(_)) => {
                Err(self.out_of_phase(index, action))
            }
            (Phase::Naming, Verb::Trump(called)) => self.name_trump(index, action, called),
            (Phase::Naming, Verb::NamedCard(called)) => self.name_card(index, action, called),
            (Phase::Play, Verb::Play(card)) => {
                let judge = self.judge();
                self.play.play_judged(index, seat, *card, judge)?;
                self.reveal(index, seat, *card);
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
            self.due().into_iter().collect(),
            &self.play,
            &self.adj.match_before,
        );
        view.trump = self.adj.trump;
        view.tally = self.adj.tally.clone();
        view.irregularities = self.adj.irregularities.clone();
        view.details = details::Details::of(self.details(true));
        view.trick_number = self.locus().trick_number;
        view
    }

    /// No trick is under way before the trump is named, nor on a deal thrown in: the table shows
    /// no trick number.
    fn locus(&self) -> Locus {
        let playing = self.phase == Phase::Play;
        Locus::of_play_once_begun(&self.play, self.due().is_none(), playing)
    }

    fn candidates(&self) -> Vec<Action<Verb>> {
        let Some(seat) = self.due() else {
            return Vec::new();
        };
        let kinds: Vec<Verb> = match self.phase {
            Phase::Auction => return self.auction.candidates(),
            Phase::Naming => Suit::ALL
                .iter()
                .map(|s| Verb::Trump(Called(s.letter().to_string())))
                .chain(
                    packs::standard52()
                        .cards
                        .iter()
                        .map(|c| Verb::NamedCard(Called(c.to_string()))),
                )
                .collect(),
            Phase::Play => return self.play.candidates(Verb::Play, Verb::Correct),
            Phase::Over => Vec::new(),
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
        self.adj.details = details::Details::of(self.details(false));
        self.adj
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// §4: a contract is worth the number bid, a slam bid 26.
    #[test]
    fn a_slam_bid_is_worth_26() {
        assert_eq!(contract_value(7), 7);
        assert_eq!(contract_value(12), 12);
        assert_eq!(contract_value(13), 26);
    }

    /// §3: the highest trump wins, else the highest card of the suit led.
    #[test]
    fn trump_beats_the_suit_led() {
        let c = |s: &str| s.parse::<Card>().unwrap();
        let mut t = Trick::new(1, Seat::N);
        for (seat, card) in [
            (Seat::N, "AC"),
            (Seat::E, "2S"),
            (Seat::S, "KC"),
            (Seat::W, "3S"),
        ] {
            t.push(seat, c(card), 0);
        }
        assert_eq!(
            t.trump_or_led_winner(Some(Suit::Spades), &ORDER),
            Some(Seat::W)
        );
        assert_eq!(
            t.trump_or_led_winner(Some(Suit::Hearts), &ORDER),
            Some(Seat::N)
        );
    }
}
