//! Calabrasella (`docs/rules/calabrasella.md`): three players, one declarer against two defenders
//! each hand; the 40-card pack ranked 3 2 A K Q J 7 6 5 4, no trumps; 12 cards each and a widow of
//! four. The first to `declare` ("play") from the dealer's left is the declarer: he calls a 3 he
//! lacks (a 2 when he holds every 3) and gives a card back for it, discards one to four cards and
//! takes as many from the widow; the player on his left leads. Aces count 3, each 3, 2, K, Q and J
//! 1, the last trick 3, and the set-aside cards go to the last trick's winner: 35 a deal. The
//! losing camp pays the difference to or from each defender, doubled at 35–0.

use crate::cards::{Card, CardSet, Rank, choices, packs};
use crate::details;
use crate::engine::auction::{Auction, Conduct, End, Ladder, NoBid, Rounds};
use crate::engine::deal::{Count, HandSize, Holds, Part, Setup};
use crate::engine::deals::AgreedDeals;
use crate::engine::{
    Adjudication, CampPoints, Contract, Ending, Established, Event, Fault, FieldError,
    FirstDecides, GameInfo, HandState, Locus, MatchState, OptionKind, OptionSpec, Options, Outcome,
    PerSide, RankOrder, RecordError, Rules, ScoreSource, Seat, Table, TableView, Trick, TrickPlay,
    TrickReport, deal, must_follow_suit,
};
use crate::record::{Action, Cards, HandRecord, Placeholder, Yes};
use serde::{Deserialize, Serialize};
use std::fmt;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::Schema;
use utoipa::{PartialSchema, ToSchema};

pub struct Calabrasella;

/// §1: three players, each his own side; the declarer and the defenders are the hand's camps.
const TABLE: Table = Table::solo(3);
const HAND: usize = 12;
const TRICKS: usize = 12;
const WIDOW: usize = 4;
/// §2 step 4: the declarer discards one to four cards.
const MOST_DISCARDS: usize = 4;
/// §4: the last trick counts 3.
const LAST_TRICK: i32 = 3;
/// §4, §5 DEFAULT: the points of a whole deal, and the payment per defender of a revoke.
const DEAL_POINTS: i32 = 35;

/// §1: 3 2 A K Q J 7 6 5 4 in every suit; no trumps.
const ORDER: RankOrder = RankOrder::new(&[
    Rank::Three,
    Rank::Two,
    Rank::Ace,
    Rank::King,
    Rank::Queen,
    Rank::Jack,
    Rank::Seven,
    Rank::Six,
    Rank::Five,
    Rank::Four,
]);

/// §4: aces 3; each 3, 2, K, Q and J 1; the rest nothing (32 in the pack).
fn points(card: Card) -> i32 {
    match card.rank_unchecked() {
        Rank::Ace => 3,
        Rank::Three | Rank::Two | Rank::King | Rank::Queen | Rank::Jack => 1,
        _ => 0,
    }
}

fn points_of(cards: impl IntoIterator<Item = Card>) -> i32 {
    cards.into_iter().map(points).sum()
}

crate::verbs! {
    /// What a record of Calabrasella can say.
    pub enum Verb in "Calabrasella" {
        Pass(Yes) = "pass": "A pass in the auction (value `true`).",
        Bid(Declare) = "declare": "The rules' call to \"play\" in the auction (value `true`): the first to declare is the declarer and the auction ends (§2). Written `declare` so that `play` always means a card played to a trick.",
        Call(Card) = "call": "The declarer calls a 3 he does not hold (a 2 when he holds all four 3s); its holder passes it to him (§2 step 3).",
        Give(Card) = "give": "The card the declarer gives in return to the defender who held the called card: any card but the one received (§2 step 3).",
        Discard(Cards) = "discard": "The declarer's discards, one to four cards, before the widow is turned up (§2 step 4).",
        Take(Cards) = "take": "The widow cards the declarer takes, as many as he discarded (§2 step 4).",
        Play(Card) = "play": "A card played to the current trick.",
        Correct(Card) = "correct": "Replaces the seat's card in the current, incomplete trick (a revoke correction).",
    }
}

crate::auction_calls!(Verb, Declare);

/// The call to play (`declare: true`): the auction's one bid, which ends it at once (§2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Declare;

impl fmt::Display for Declare {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("play")
    }
}

impl Serialize for Declare {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Yes.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Declare {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Yes::deserialize(d).map(|_| Declare)
    }
}

impl PartialSchema for Declare {
    fn schema() -> RefOr<Schema> {
        Yes::schema()
    }
}

impl ToSchema for Declare {}

impl Placeholder for Declare {
    const PLACEHOLDER: &'static str = "true";
}

/// §2: pass or play, from the dealer's left; the first play ends the auction.
#[derive(Clone, Copy, Debug)]
struct PassOrPlay;

impl Ladder for PassOrPlay {
    type Bid = Declare;
    type Rank = ();

    fn rank(&self, _: &Declare) -> Option<()> {
        Some(())
    }

    fn bids(&self) -> Vec<Declare> {
        vec![Declare]
    }

    fn closes(&self, _: &()) -> bool {
        true
    }
}

const AUCTION: Conduct<Declare> = Conduct {
    rounds: Rounds::One,
    equal: None,
    no_bid: NoBid::Passed,
    rule: "calabrasella.md §1, §2",
};

static OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "set_aside_uncounted",
        kind: OptionKind::Flag { default: false },
        description: "The declarer's discards and the widow cards he does not take count for nobody \
                      (the seed's words taken literally): a deal is worth 35 less their points, the \
                      camps may tie (nobody pays), and the payments are doubled when one camp took \
                      every point counted. Default: they count for the winner of the last trick.",
        rule: "calabrasella.md §6 CL-1",
    },
    OptionSpec {
        name: "call_ace_if_all_2s_and_3s",
        kind: OptionKind::Flag { default: false },
        description: "A declarer holding all four 3s and all four 2s calls an ace he does not hold. \
                      Default: he calls no card.",
        rule: "calabrasella.md §6 CL-3",
    },
    OptionSpec {
        name: "first_lead",
        kind: OptionKind::Choice {
            values: &["declarers_left", "eldest"],
            default: "declarers_left",
        },
        description: "Who leads to the first trick: the player on the declarer's left \
                      (`declarers_left`), or the dealer's left (`eldest`).",
        rule: "calabrasella.md §6 CL-4",
    },
    OptionSpec {
        name: "deals",
        kind: OptionKind::Count {
            min: 0,
            max: 10_000,
            default: 0,
        },
        description: "The agreed number of deals, passed-out deals included: when they are done the \
                      match is over and the highest chip balance wins (none on a tie for highest). \
                      0: not agreed, the chips are settled deal by deal and the match never ends by \
                      itself.",
        rule: "calabrasella.md §4, CL-a",
    },
    OptionSpec {
        name: "revoke_penalty",
        kind: OptionKind::Choice {
            values: &["default", "none"],
            default: "default",
        },
        description: "`default`: an established revoke settles the hand 35–0 to the other camp, 35 \
                      per defender, never doubled (the rulings' default, the text being silent); \
                      `none`: revokes are reported only and the hand is settled on the points taken.",
        rule: "calabrasella.md §5, CL-b",
    },
];

/// Score codes (§4): the difference of the camps' points, paid by the losing camp to or from
/// each defender; the same again at 35–0.
const DIFFERENCE: &str = "difference";
const DOUBLED: &str = "doubled";

static INFO: GameInfo = GameInfo {
    id: "calabrasella",
    name: "Calabrasella",
    tables: crate::engine::Tables(&[TABLE]),
    deck: "40-card pack (A K Q J 7-2), ranked 3 2 A K Q J 7 6 5 4; 12 cards each and a widow of 4",
    // No target: chips are settled deal by deal over the agreed number of deals (`deals`).
    game_target: 0,
    options: OPTIONS,
    rules: "docs/rules/calabrasella.md",
    irregularities: &["revoke"],
    record_errors: &[
        "out_of_turn",
        "unexpected_action",
        "illegal_call",
        "illegal_give",
        "wrong_number_of_cards",
        "card_not_in_widow",
        "card_not_held",
        "card_played_twice",
        "invalid_correct",
        "action_after_end",
        "incomplete_hand",
    ],
    events: &[
        "all_passed",
        "card_called",
        "no_card_called",
        "card_given",
        "discarded",
        "widow_exposed",
        "widow_taken",
        "set_aside_counted",
    ],
    score_codes: &[DIFFERENCE, DOUBLED],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    titles: crate::engine::Titles(&[
        ("illegal_call", "Called card the rules do not allow"),
        (
            "illegal_give",
            "Card given back that the declarer just received",
        ),
        (
            "wrong_number_of_cards",
            "Discard or take of a number of cards the rules do not allow",
        ),
        ("card_not_in_widow", "Card taken that is not in the widow"),
        ("all_passed", "All three passed: the next player deals"),
        ("card_called", "Card called by the declarer"),
        (
            "no_card_called",
            "No card called: the declarer holds every 3 and 2",
        ),
        ("card_given", "Card given back for the called card"),
        ("discarded", "Cards discarded by the declarer"),
        ("widow_exposed", "Widow turned face up"),
        ("widow_taken", "Widow cards taken by the declarer"),
        (
            "set_aside_counted",
            "Set-aside cards counted by the winner of the last trick",
        ),
        (DIFFERENCE, "Difference in points, paid per defender"),
        (DOUBLED, "35–0: every payment doubled"),
    ]),
};

/// What Calabrasella carries from deal to deal besides the chip balances.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = CalabrasellaCarried)]
pub struct Carried {
    /// Deals all three passed so far (CL-a): they count towards the agreed `deals` but not in
    /// `hands_played`, which counts the hands played to a result.
    #[serde(default)]
    pub passed_out: u32,
}

/// The called card and what became of it (§2 step 3).
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[schema(as = CalabrasellaCall)]
pub struct Called {
    pub card: Card,
    /// The defender who held it and passed it to the declarer; `null` when it lay in the widow.
    pub held_by: Option<Seat>,
    /// The card the declarer gave that defender in return; `null` until given (or when none is).
    pub returned: Option<Card>,
}

/// What a Calabrasella adjudication adds.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = CalabrasellaDetails)]
pub struct Details {
    /// This deal's number in the match: deals before it (played and passed out) + 1 (CL-a).
    pub deal: u32,
    /// The four widow cards as dealt.
    pub widow: Vec<Card>,
    /// The called card, its holder and the card returned; `null` before the call, when all three
    /// passed, or when no card could be called (CL-3).
    pub called: Option<Called>,
    /// The declarer's discards (`[]` until made).
    pub discards: Vec<Card>,
    /// The widow cards he took (`[]` until taken).
    pub taken: Vec<Card>,
    /// The cards taking no part in play: the discards and the widow cards not taken (`[]` until
    /// the widow is taken).
    pub set_aside: Vec<Card>,
    /// The winner of the last trick, whose camp counts the set-aside cards (CL-1); `null` before
    /// the last trick, or when `set_aside_uncounted`.
    pub set_aside_to: Option<Seat>,
    /// The camps' points once the hand is played out (§4: 35 together unless
    /// `set_aside_uncounted`); `null` before.
    pub camp_points: Option<CampPoints>,
    /// The payments were doubled (35–0, §4); `false` under a revoke penalty (never doubled).
    pub doubled: bool,
}

/// How the options shape this hand's rules.
#[derive(Clone, Copy, Debug)]
struct Variants {
    /// CL-1: the set-aside cards count for the last trick's winner.
    set_aside_counted: bool,
    /// CL-3 `call_ace_if_all_2s_and_3s`.
    call_aces: bool,
    /// CL-4 `first_lead = eldest`.
    eldest_leads: bool,
    /// README "Penalties": `revoke_penalty = none` reports revokes without effect.
    penalties: bool,
    /// CL-a: the agreed number of deals (0: none agreed).
    deals: AgreedDeals,
}

impl Variants {
    fn of(options: &Options) -> Variants {
        Variants {
            set_aside_counted: !options.flag("set_aside_uncounted"),
            call_aces: options.flag("call_ace_if_all_2s_and_3s"),
            eldest_leads: options.choice("first_lead") == "eldest",
            penalties: options.choice("revoke_penalty") == "default",
            deals: AgreedDeals(options.count("deals")),
        }
    }

    /// §2 step 3, CL-3: the cards the declarer holding `hand` may call (a 3 he lacks; holding
    /// every 3, a 2 he lacks; holding every 3 and 2, an ace he lacks under the variant), with
    /// their rank; `None` when he calls nothing.
    fn callable(&self, hand: CardSet) -> Option<(Rank, CardSet)> {
        let ranks: &[Rank] = if self.call_aces {
            &[Rank::Three, Rank::Two, Rank::Ace]
        } else {
            &[Rank::Three, Rank::Two]
        };
        ranks.iter().find_map(|&rank| {
            let lacking: CardSet = packs::latin40()
                .cards
                .iter()
                .filter(|c| c.rank_unchecked() == rank && !hand.contains(*c))
                .collect();
            (!lacking.is_empty()).then_some((rank, lacking))
        })
    }
}

impl Rules for Calabrasella {
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
            pack: packs::latin40(),
            hand: HandSize::Each(HAND),
            counted_by: None,
            parts: &[Holds {
                part: Part::Widow,
                what: "the widow: the four cards dealt face down to the table",
                count: Count::Between(WIDOW as u32, WIDOW as u32),
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
        let pack = packs::latin40();
        let mut dealt = deal::check_cards(record, TABLE, &pack)?;
        deal::check_undealt(&record.stock, "stock", &pack, &mut dealt)?;
        deal::check_whole_pack(&dealt, &pack)?;
        let rules = Variants::of(options);
        let carried: Carried = details::read(&before.details, "/match_state")?;
        // README C14: net balances paid between players add up to 0; the agreed deals not done.
        rules
            .deals
            .check_match(before, carried.passed_out, 0, "§4", "CL-a")?;
        let dealer = record.dealer;
        let mut adj = Adjudication::new(INFO.id, dealer, before, TRICKS);
        adj.tally = PerSide::over(TABLE.sides());
        adj.counts_card_points(TABLE.sides());
        Ok(Box::new(Hand {
            rules,
            deal: AgreedDeals::done(before, carried.passed_out) + 1,
            passed_out: carried.passed_out,
            phase: Phase::Auction,
            auction: Auction::new(TABLE, TABLE.left(dealer), PassOrPlay, AUCTION),
            declarer: None,
            widow: record.stock.iter().copied().collect(),
            widow_dealt: record.stock.clone(),
            called: None,
            discards: Vec::new(),
            taken: Vec::new(),
            set_aside: Vec::new(),
            set_aside_to: None,
            camp_points: None,
            doubled: false,
            play: TrickPlay::new(TABLE, dealt.hands, TABLE.left(dealer)),
            revoke: FirstDecides::default(),
            adj,
        }))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// §2 step 2: pass or play from the dealer's left.
    Auction,
    /// §2 step 3: the declarer calls a card.
    Call,
    /// §2 step 3: the declarer gives a card back to the defender who held the called card.
    Give,
    /// §2 step 4: one to four discards.
    Discard,
    /// §2 step 4: as many widow cards taken.
    Take,
    Play,
    Over,
}

#[derive(Clone)]
struct Hand {
    rules: Variants,
    /// This deal's number in the match (CL-a).
    deal: u32,
    passed_out: u32,
    phase: Phase,
    auction: Auction<PassOrPlay>,
    declarer: Option<Seat>,
    /// The widow cards not (yet) taken.
    widow: CardSet,
    widow_dealt: Vec<Card>,
    called: Option<Called>,
    discards: Vec<Card>,
    taken: Vec<Card>,
    set_aside: Vec<Card>,
    set_aside_to: Option<Seat>,
    camp_points: Option<CampPoints>,
    doubled: bool,
    play: TrickPlay,
    /// §5 DEFAULT, README C7: the first established revoke decides the payment.
    revoke: FirstDecides,
    adj: Adjudication,
}

impl Hand {
    fn judge(&self) -> impl Fn(&Trick, CardSet, Card) -> Option<Fault> + use<> {
        |trick, hand, card| must_follow_suit(TABLE, "calabrasella.md §3", trick, hand, card)
    }

    fn declarer(&self) -> Seat {
        self.declarer.expect("the auction is over")
    }

    /// The seat due to act.
    fn due(&self) -> Option<Seat> {
        match self.phase {
            Phase::Auction => self.auction.due(),
            Phase::Call | Phase::Give | Phase::Discard | Phase::Take => self.declarer,
            Phase::Play => self.play.to_play(),
            Phase::Over => None,
        }
    }

    fn what_is_due(&self) -> String {
        let seat = self.due().map_or(String::new(), |s| s.to_string());
        match self.phase {
            Phase::Auction => format!("{seat} passes or declares (§2)"),
            Phase::Call => format!("{seat}, the declarer, calls a card (§2 step 3)"),
            Phase::Give => format!(
                "{seat}, the declarer, gives a card back to {} (§2 step 3)",
                self.called
                    .and_then(|c| c.held_by)
                    .map_or(String::new(), |s| s.to_string())
            ),
            Phase::Discard => {
                format!("{seat}, the declarer, discards one to four cards (§2 step 4)")
            }
            Phase::Take => format!(
                "{seat}, the declarer, takes {} widow cards (§2 step 4)",
                self.discards.len()
            ),
            Phase::Play => format!("{seat} plays to trick {}", self.play.trick.number),
            Phase::Over => self.over().into(),
        }
    }

    fn over(&self) -> &'static str {
        if self.adj.outcome == Outcome::Void {
            "all three passed: the hand is not played"
        } else {
            "all twelve tricks have been played"
        }
    }

    /// README C11, C12: an action that does not fit the phase.
    fn out_of_phase(&self, index: usize, action: &Action<Verb>) -> RecordError {
        RecordError::misfit(index, action, self.due(), &self.what_is_due())
    }

    /// §2 step 2: pass or play; the first play makes the declarer, three passes the next deal.
    fn bid(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        match self.auction.apply(index, action)? {
            None => {}
            Some(End::Won { declarer, .. }) => {
                self.declarer = Some(declarer);
                let mut contract = Contract::new(declarer, TABLE.side(declarer));
                contract.bid = Some(serde_json::Value::Bool(true));
                self.adj.contract = Some(contract);
                self.adj
                    .set_camps(TABLE, "declarer", &[declarer], "defenders");
                match self.rules.callable(self.play.hand(declarer)) {
                    Some(_) => self.phase = Phase::Call,
                    None => {
                        self.adj.events.push(Event::new(
                            "no_card_called",
                            index,
                            declarer,
                            Vec::new(),
                            format!(
                                "{declarer} holds all four 3s and all four 2s{}: he calls no card (CL-3)",
                                if self.rules.call_aces { " and all four aces" } else { "" }
                            ),
                        ));
                        self.phase = Phase::Discard;
                    }
                }
            }
            Some(End::Passed) => {
                self.adj.outcome = Outcome::Void;
                self.phase = Phase::Over;
                self.adj.events.push(Event::new(
                    "all_passed",
                    index,
                    action.seat,
                    Vec::new(),
                    "all three passed: the cards are thrown in and the next player deals (§1, §2)"
                        .into(),
                ));
            }
            Some(End::Compelled { .. }) => unreachable!("nobody is compelled to play (§2)"),
        }
        Ok(())
    }

    /// §2 step 3, CL-d: the declarer calls a card; its holder, a defender, passes it to him.
    fn call(&mut self, index: usize, action: &Action<Verb>, card: Card) -> Result<(), RecordError> {
        let declarer = self.declarer();
        let Some((rank, lacking)) = self.rules.callable(self.play.hand(declarer)) else {
            return Err(RecordError::on(
                "illegal_call",
                index,
                action,
                format!(
                    "{declarer} holds every card that could be called: no card is called (CL-3)"
                ),
            ));
        };
        if !lacking.contains(card) {
            let kind = match rank {
                Rank::Three => "a 3 he does not hold",
                Rank::Two => "a 2 he does not hold, as he holds all four 3s",
                _ => "an ace he does not hold, as he holds every 3 and 2 (CL-3)",
            };
            return Err(RecordError::on(
                "illegal_call",
                index,
                action,
                format!("{declarer} calls {kind}: one of {lacking}, not {card} (§2 step 3, CL-d)"),
            ));
        }
        let holder = TABLE
            .seats()
            .find(|&s| s != declarer && self.play.hand(s).contains(card));
        self.called = Some(Called {
            card,
            held_by: holder,
            returned: None,
        });
        match holder {
            Some(holder) => {
                self.play.give_up(index, holder, card, "call")?;
                self.play.hand_mut(declarer).insert(card);
                self.adj.events.push(Event::new(
                    "card_called",
                    index,
                    declarer,
                    vec![card],
                    format!("{declarer} called {card}: {holder} holds it and passes it to him (§2 step 3)"),
                ));
                self.phase = Phase::Give;
            }
            None => {
                self.adj.events.push(Event::new(
                    "card_called",
                    index,
                    declarer,
                    vec![card],
                    format!("{declarer} called {card}: it lies in the widow, so he gets nothing for it (§2 step 3)"),
                ));
                self.phase = Phase::Discard;
            }
        }
        Ok(())
    }

    /// §2 step 3, §3, CL-d: any card but the one just received goes back to the called card's holder.
    fn give(&mut self, index: usize, action: &Action<Verb>, card: Card) -> Result<(), RecordError> {
        let declarer = self.declarer();
        let mut called = self.called.expect("a card was called");
        let holder = called.held_by.expect("a defender held it");
        if card == called.card {
            return Err(RecordError::on(
                "illegal_give",
                index,
                action,
                format!(
                    "{declarer} gives back any card but {card}, the one he just received (§3, CL-d)"
                ),
            ));
        }
        self.play.give_up(index, declarer, card, "give")?;
        self.play.hand_mut(holder).insert(card);
        called.returned = Some(card);
        self.called = Some(called);
        self.adj.events.push(Event::new(
            "card_given",
            index,
            declarer,
            vec![card],
            format!("{declarer} gave {card} to {holder} for {}, concealed from the third player (§2 step 3)", called.card),
        ));
        self.phase = Phase::Discard;
        Ok(())
    }

    /// §2 step 4, CL-c, CL-e: one to four discards; then the widow is turned up.
    fn discard(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        cards: &[Card],
    ) -> Result<(), RecordError> {
        let declarer = self.declarer();
        if cards.is_empty() || cards.len() > MOST_DISCARDS {
            return Err(RecordError::on(
                "wrong_number_of_cards",
                index,
                action,
                format!(
                    "{declarer} discards one to four cards, not {} (§2 step 4, CL-e)",
                    cards.len()
                ),
            ));
        }
        for &card in cards {
            self.play.give_up(index, declarer, card, "discard")?;
        }
        self.discards = cards.to_vec();
        self.adj.events.push(Event::new(
            "discarded",
            index,
            declarer,
            cards.to_vec(),
            format!(
                "{declarer} discarded {} card(s) face down (§2 step 4)",
                cards.len()
            ),
        ));
        self.adj.events.push(Event::new(
            "widow_exposed",
            index,
            declarer,
            self.widow_dealt.clone(),
            format!("{declarer} turned the widow face up (§2 step 4)"),
        ));
        self.phase = Phase::Take;
        Ok(())
    }

    /// §2 step 4, CL-e: as many widow cards as discarded; the rest and the discards are set aside.
    fn take(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        cards: &[Card],
    ) -> Result<(), RecordError> {
        let declarer = self.declarer();
        if cards.len() != self.discards.len() {
            return Err(RecordError::on(
                "wrong_number_of_cards",
                index,
                action,
                format!(
                    "{declarer} takes as many widow cards as he discarded, {}, not {} (§2 step 4, CL-e)",
                    self.discards.len(),
                    cards.len()
                ),
            ));
        }
        for &card in cards {
            if !self.widow.remove(card) {
                return Err(RecordError::on(
                    "card_not_in_widow",
                    index,
                    action,
                    format!("{card} is not in the widow: it holds {} (CL-e)", self.widow),
                ));
            }
            self.play.hand_mut(declarer).insert(card);
        }
        self.taken = cards.to_vec();
        // The discards, then the widow cards left, in the order dealt.
        let left = self.widow_dealt.iter().filter(|&&c| self.widow.contains(c));
        self.set_aside = self.discards.iter().chain(left).copied().collect();
        self.adj.events.push(Event::new(
            "widow_taken",
            index,
            declarer,
            cards.to_vec(),
            format!(
                "{declarer} took {} from the widow; the discards and {} are set aside (§2 step 4, CL-1)",
                cards.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" "),
                if self.widow.is_empty() { "no widow card".to_string() } else { self.widow.to_string() }
            ),
        ));
        // §3, CL-4: the declarer's left leads, or Eldest under `first_lead = eldest`.
        let leader = if self.rules.eldest_leads {
            TABLE.left(self.adj.dealer)
        } else {
            TABLE.left(declarer)
        };
        self.play.lead_next(leader);
        self.phase = Phase::Play;
        Ok(())
    }

    fn close_trick(&mut self) {
        let winner = self
            .play
            .trick
            .trump_or_led_winner(None, &ORDER)
            .expect("a complete trick of suited cards");
        let (trick, established) = self.play.close_trick(winner);
        let mut points = points_of(trick.plays().iter().map(|p| p.card));
        let last = self.adj.tricks.len() + 1 == TRICKS;
        if last {
            // §4, CL-1: the last trick counts 3, and its winner takes the set-aside cards.
            points += LAST_TRICK;
            if self.rules.set_aside_counted {
                points += points_of(self.set_aside.iter().copied());
                self.set_aside_to = Some(winner);
                let at = trick.action_index(trick.len() - 1);
                let cards = self.set_aside.clone();
                self.adj.events.push(Event::new(
                    "set_aside_counted",
                    at,
                    winner,
                    cards,
                    format!(
                        "{winner} won the last trick: its 3 points and the set-aside cards ({} points) count for his camp (§4, CL-1)",
                        points_of(self.set_aside.iter().copied())
                    ),
                ));
            }
        }
        let side = TABLE.side(winner);
        self.adj.tally[side].tricks += 1;
        *self.adj.tally[side].points.get_or_insert(0) += points;
        let mut report = TrickReport::new(trick, winner);
        report.points = Some(points);
        self.adj.tricks.push(report);
        for e in established {
            self.revoke_established(e);
        }
        if last {
            self.play.stop();
            self.phase = Phase::Over;
        }
    }

    /// §5 DEFAULT, CL-b: the first established revoke settles the hand 35–0 to the other camp,
    /// 35 per defender, never doubled (README C7: a later one has no further effect); play goes on.
    fn revoke_established(&mut self, e: Established) {
        let declarer = self.declarer();
        let by_declarer = e.seat == declarer;
        let decides = self.rules.penalties
            && self
                .revoke
                .offence(TABLE.side(e.seat), e.action_index, e.fault.code)
                .is_none();
        let consequence = if !self.rules.penalties {
            "reported only: the option revoke_penalty is none, the hand is settled on the points taken".to_string()
        } else if !decides {
            let (side, at) = self.revoke.decided().expect("an earlier revoke decided");
            format!(
                "no further effect: the revoke by {} at action {at} already settled the hand (README C7)",
                side.spoken()
            )
        } else if by_declarer {
            format!(
                "DEFAULT (text silent): the hand is settled 35–0 to the defenders: {declarer} pays each defender {DEAL_POINTS}, never doubled; play goes on and the points taken are still reported (calabrasella.md §5, CL-b)"
            )
        } else {
            format!(
                "DEFAULT (text silent): the hand is settled 35–0 to {declarer}, the declarer: each defender pays him {DEAL_POINTS}, never doubled; play goes on and the points taken are still reported (calabrasella.md §5, CL-b)"
            )
        };
        let i = self.adj.irregularities.len();
        self.adj.irregularities.push(e.irregularity(consequence));
        if decides {
            let each = if by_declarer {
                -DEAL_POINTS
            } else {
                DEAL_POINTS
            };
            self.adj.penalize(i, TABLE.side(declarer), 2 * each);
            for d in TABLE.seats().filter(|&s| s != declarer) {
                self.adj.penalize(i, TABLE.side(d), -each);
            }
        }
    }

    /// §4: settles a hand played out (or passed out), and the match (CL-a).
    fn score(&mut self) {
        let dealer = self.adj.dealer;
        let mut passed_out = self.passed_out;
        if self.adj.outcome == Outcome::Void {
            // No play, no payment; the deal passes left (§4) and counts towards `deals` (CL-a).
            self.adj.settle();
            passed_out += 1;
        } else {
            let declarer = self.declarer();
            let d = self.adj.tally[TABLE.side(declarer)].points.unwrap_or(0);
            let e: i32 = TABLE
                .seats()
                .filter(|&s| s != declarer)
                .map(|s| self.adj.tally[TABLE.side(s)].points.unwrap_or(0))
                .sum();
            self.camp_points = Some(CampPoints {
                declarer: d,
                defenders: e,
            });
            let won = match self.revoke.decided() {
                // The penalty replaced the payment (CL-b): the camp that did not revoke won.
                Some((offenders, _)) => offenders != TABLE.side(declarer),
                None => {
                    // §4: each defender pays the declarer d − e (the declarer pays each e − d);
                    // doubled when one camp took every point (35–0).
                    let difference = d - e;
                    self.adj.pay_each_from_each(
                        TABLE,
                        "defenders",
                        "declarer",
                        difference,
                        ScoreSource::Tricks,
                        DIFFERENCE,
                    );
                    if d == 0 || e == 0 {
                        self.doubled = true;
                        self.adj.pay_each_from_each(
                            TABLE,
                            "defenders",
                            "declarer",
                            difference,
                            ScoreSource::Tricks,
                            DOUBLED,
                        );
                    }
                    d > e
                }
            };
            if let Some(c) = &mut self.adj.contract {
                c.made = Some(won);
            }
            self.adj.hand_winner = won.then(|| TABLE.side(declarer));
            self.adj.settle();
        }
        let m = &mut self.adj.match_after;
        m.next_dealer = Some(TABLE.left(dealer));
        m.details = details::Details::of(Carried { passed_out });
        // CL-a: the agreed deals done, the highest chip balance wins; a tie at the top, nobody.
        self.rules.deals.close(m, passed_out);
    }

    fn details(&self) -> Details {
        Details {
            deal: self.deal,
            widow: self.widow_dealt.clone(),
            called: self.called,
            discards: self.discards.clone(),
            taken: self.taken.clone(),
            set_aside: self.set_aside.clone(),
            set_aside_to: self.set_aside_to,
            camp_points: self.camp_points,
            doubled: self.doubled,
        }
    }

    fn phase_name(&self) -> &'static str {
        match self.phase {
            Phase::Auction => "auction",
            Phase::Call => "call",
            Phase::Give => "give",
            Phase::Discard => "discard",
            Phase::Take => "take",
            Phase::Play => "play",
            Phase::Over => "over",
        }
    }
}

impl HandState<Verb> for Hand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        match (self.phase, &action.kind) {
            (Phase::Auction, _) => self.bid(index, action),
            (Phase::Play, Verb::Correct(card)) => {
                let judge = self.judge();
                self.play.correct(index, seat, *card, judge)
            }
            (_, _) if self.due() != Some(seat) || matches!(action.kind, Verb::Correct(_)) => {
                Err(self.out_of_phase(index, action))
            }
            (Phase::Call, Verb::Call(card)) => self.call(index, action, *card),
            // CL-3: holding every card that could be called, the declarer calls none.
            (Phase::Discard, Verb::Call(card)) if self.called.is_none() => {
                self.call(index, action, *card)
            }
            (Phase::Give, Verb::Give(card)) => self.give(index, action, *card),
            (Phase::Discard, Verb::Discard(cards)) => self.discard(index, action, &cards.0),
            (Phase::Take, Verb::Take(cards)) => self.take(index, action, &cards.0),
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
            self.due().into_iter().collect(),
            &self.play,
            &self.adj.match_before,
        );
        view.tally = self.adj.tally.clone();
        view.irregularities = self.adj.irregularities.clone();
        view.details = details::Details::of(self.details());
        view
    }

    fn locus(&self) -> Locus {
        Locus::of_play(&self.play, self.due().is_none())
    }

    fn candidates(&self) -> Vec<Action<Verb>> {
        let Some(seat) = self.due() else {
            return Vec::new();
        };
        let kinds: Vec<Verb> = match self.phase {
            Phase::Auction => return self.auction.candidates(),
            Phase::Call => packs::latin40().cards.iter().map(Verb::Call).collect(),
            Phase::Give => self.play.hand(seat).iter().map(Verb::Give).collect(),
            Phase::Discard => {
                let hand: Vec<Card> = self.play.hand(seat).iter().collect();
                choices(&hand, 1..=MOST_DISCARDS)
                    .into_iter()
                    .map(|cards| Verb::Discard(Cards(cards)))
                    .collect()
            }
            Phase::Take => {
                let widow: Vec<Card> = self.widow.iter().collect();
                let n = self.discards.len();
                choices(&widow, n..=n)
                    .into_iter()
                    .map(|cards| Verb::Take(Cards(cards)))
                    .collect()
            }
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

    fn finish(mut self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        self.adj.corrected_revokes = std::mem::take(&mut self.play.corrected);
        let ending = match self.phase {
            Phase::Over => Ending::Over,
            // README C9, CL-b: a revoke does not end the hand; every trick is played.
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

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    fn set(cards: &str) -> CardSet {
        cards.split_whitespace().map(c).collect()
    }

    fn variants(raw: serde_json::Value) -> Variants {
        let raw = serde_json::from_value(raw).unwrap();
        Variants::of(&Options::resolve(OPTIONS, &raw, "/options").unwrap())
    }

    /// §4: 32 card points in the pack; with the last trick, 35 a deal.
    #[test]
    fn the_pack_holds_32_card_points() {
        assert_eq!(
            points_of(packs::latin40().cards.iter()) + LAST_TRICK,
            DEAL_POINTS
        );
    }

    /// §1: 3 2 A K Q J 7 6 5 4; only the suit led wins.
    #[test]
    fn threes_and_twos_rank_above_the_ace() {
        let mut t = Trick::new(1, TABLE.seat(0));
        for (i, card) in ["AS", "2S", "3H"].iter().enumerate() {
            t.push(TABLE.seat(i), c(card), i);
        }
        assert_eq!(t.trump_or_led_winner(None, &ORDER), Some(TABLE.seat(1)));
        let mut t = Trick::new(1, TABLE.seat(0));
        for (i, card) in ["4S", "7S", "KD"].iter().enumerate() {
            t.push(TABLE.seat(i), c(card), i);
        }
        assert_eq!(t.trump_or_led_winner(None, &ORDER), Some(TABLE.seat(1)));
    }

    /// §2 step 3, CL-3: a 3 he lacks; holding every 3, a 2 he lacks; holding every 3 and 2,
    /// nothing (an ace he lacks under the variant, nothing if he holds them all).
    #[test]
    fn what_the_declarer_may_call() {
        let plain = variants(serde_json::json!({}));
        let aces = variants(serde_json::json!({"call_ace_if_all_2s_and_3s": true}));
        let some = set("3S 3H 2S AS KS QS JS 7S 6S 5S 4S AH");
        assert_eq!(plain.callable(some), Some((Rank::Three, set("3D 3C"))));
        let threes = set("3S 3H 3D 3C 2S 2H AS KS QS JS 7S 6S");
        assert_eq!(plain.callable(threes), Some((Rank::Two, set("2D 2C"))));
        let all = set("3S 3H 3D 3C 2S 2H 2D 2C AS KS QS JS");
        assert_eq!(plain.callable(all), None);
        assert_eq!(aces.callable(all), Some((Rank::Ace, set("AH AD AC"))));
        let everything = set("3S 3H 3D 3C 2S 2H 2D 2C AS AH AD AC");
        assert_eq!(aces.callable(everything), None);
    }

    /// The discards and takes offered: every subset of one to four cards.
    #[test]
    fn subsets_of_one_to_four_cards() {
        let hand: Vec<Card> = set("3S 3H 3D 3C 2S 2H 2D 2C AS KS QS JS").iter().collect();
        // C(12,1) + C(12,2) + C(12,3) + C(12,4) = 12 + 66 + 220 + 495.
        assert_eq!(choices(&hand, 1..=4).len(), 793);
        let widow: Vec<Card> = set("AC 4S 4H 4D").iter().collect();
        assert_eq!(choices(&widow, 2..=2).len(), 6);
    }
}
