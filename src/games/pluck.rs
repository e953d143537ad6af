//! Pluck (`docs/rules/pluck.md`): three players each for himself, the 51-card pack (no 2S 2H 2D;
//! the big and little jokers, trumps above the ace), 17 cards each. Trick quotas by position:
//! dealer 7, his left 6, his right 4; a player scores one point per trick above his quota. From
//! a game's second hand on, the previous hand's surpluses pluck its shortfalls (a card passed, the
//! victim's highest of that suit passed back); then the dealer names trump, the holder of 2C leads
//! it, trumps are not led until broken. Game to 20.

use crate::cards::{Card, CardClass, CardSet, Rank, Suit, packs};
use crate::details;
use crate::engine::Fault;
use crate::engine::deal::{HandSize, Setup};
use crate::engine::{
    Adjudication, Called, Decided, Ending, Established, Event, FieldError, GameInfo, HandState,
    Locus, MatchState, OptionKind, OptionSpec, Options, PerSide, RankOrder, RecordError, Rotation,
    Rules, ScoreSource, Seat, Table, TableView, Trick, TrickPlay, TrickReport, deal,
};
use crate::record::{Action, HandRecord, Placeholder};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;

pub struct Pluck;

crate::verbs! {
    /// What a record of Pluck can say.
    pub enum Verb in "Pluck" {
        Pluck(Plucked) = "pluck": "From the second hand of a game on: the plucker passes `card_given` face down to `victim` (§3.1).",
        PluckReturn(Card) = "pluck_return": "The victim passes back his highest card of the suit he was just given (that card included, PL-3); directly after its pluck.",
        Trump(Called) = "trump": "The dealer names trump (S, H, D or C) after the plucks.",
        Play(Card) = "play": "A card played to the current trick; the holder of 2C leads it to trick 1.",
        Correct(Card) = "correct": "Replaces the seat's card in the current, incomplete trick (a revoke or a trump led before trumps were broken, corrected).",
    }
}

/// A `pluck`: the plucker is the action's seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = PluckPlucked)]
pub struct Plucked {
    /// The player plucked: one short of his quota in the previous hand.
    pub victim: Seat,
    /// The card the plucker passes face down (never a joker).
    pub card_given: Card,
}

impl Placeholder for Plucked {
    const PLACEHOLDER: &'static str = "{\"victim\": <seat>, \"card_given\": <card>}";
}

static INFO: GameInfo = GameInfo {
    id: "pluck",
    name: "Pluck",
    tables: crate::engine::Tables(&[Table::solo(3)]),
    deck: "51-card pack (A-3 of each suit, 2C, the big joker BJ and the little joker LJ); 17 cards each",
    game_target: GAME,
    options: &[OptionSpec {
        name: "revoke_penalty",
        kind: OptionKind::Choice {
            values: &["default", "none"],
            default: "default",
        },
        description: "`default`: each established revoke or trump led before trumps were broken counts \
                      the offender's tricks 2 fewer (not below 0) and each other player's 1 more, before \
                      points and the next hand's plucks (the rulings' default, the text being silent); \
                      `none`: they are reported only.",
        rule: "pluck.md §5, README \"Penalties\"",
    }],
    rules: "docs/rules/pluck.md",
    irregularities: &[REVOKE, TRUMP_LEAD],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    record_errors: &[
        "out_of_turn",
        "unexpected_action",
        "pluck_not_owed",
        "ineligible_pluck",
        "wrong_pluck_return",
        "plucks_incomplete",
        "illegal_trump",
        "wrong_first_lead",
        "card_not_held",
        "card_played_twice",
        "invalid_correct",
        "action_after_end",
        "incomplete_hand",
    ],
    events: &[PLUCKED, "trump_named", "trumps_broken"],
    score_codes: &[OVER_QUOTA],
    titles: crate::engine::Titles(&[
        (TRUMP_LEAD, "Trump led before trumps were broken"),
        (
            "pluck_not_owed",
            "Pluck that the previous hand does not owe",
        ),
        ("ineligible_pluck", "Joker passed in a pluck"),
        (
            "wrong_pluck_return",
            "Pluck returned that is not the victim's highest card of the suit",
        ),
        (
            "plucks_incomplete",
            "Plucks still owed when trump was named or play began",
        ),
        (
            "illegal_trump",
            "Trump named that is not one of the four suits",
        ),
        ("wrong_first_lead", "Trick 1 not led with 2C"),
        (PLUCKED, "Pluck made"),
        ("trump_named", "Trump named by the dealer"),
        ("trumps_broken", "Trumps broken"),
        (OVER_QUOTA, "Tricks above quota"),
    ]),
};

const REVOKE: &str = "revoke";
const TRUMP_LEAD: &str = "trump_lead_before_broken";
const PLUCKED: &str = "plucked";
/// §4: one point per trick above the quota.
const OVER_QUOTA: &str = "over_quota";

/// §1: game to 20.
const GAME: i32 = 20;
/// §1: 17 cards each, 17 tricks.
const TRICKS: usize = 17;

/// §1: suits A high; 2C the lowest club.
const ORDER: RankOrder = RankOrder::ACE_HIGH;

/// §1: the quotas by position: dealer 7, his left 6, his right 4.
fn quota(table: Table, dealer: Seat, seat: Seat) -> i32 {
    if seat == dealer {
        7
    } else if seat == table.left(dealer) {
        6
    } else {
        4
    }
}

const TWO_OF_CLUBS: Card = Card::new(Rank::Two, Suit::Clubs);

/// §1, PL-5: the suit a card belongs to for following and leading: the jokers are trumps.
fn suit_of(card: Card, trump: Suit) -> Suit {
    card.suit().unwrap_or(trump)
}

fn is_trump(card: Card, trump: Suit) -> bool {
    suit_of(card, trump) == trump
}

/// §4, PL-2: the highest trump (BJ, LJ, then A down) wins, else the highest card of the suit led.
fn strength(card: Card, led: Suit, trump: Suit) -> Option<u16> {
    match card.class() {
        CardClass::Joker(crate::cards::Joker::Big) => Some(0x211),
        CardClass::Joker(_) => Some(0x210),
        CardClass::Suited(suit, rank) if suit == trump => Some(0x200 | ORDER.strength(rank) as u16),
        CardClass::Suited(suit, rank) if suit == led => Some(0x100 | ORDER.strength(rank) as u16),
        _ => None,
    }
}

/// §3.2, PL-1, PL-5: follow the suit led if able (a joker is a trump); a trump (or joker) is not
/// led before trumps are broken, unless the leader holds only trumps.
fn judge(trump: Suit, broken: bool) -> impl Fn(&Trick, CardSet, Card) -> Option<Fault> {
    let table = Table::solo(3);
    move |trick, hand, card| {
        let seat = trick.next_seat(table);
        let of_suit = |suit: Suit| -> CardSet {
            hand.iter().filter(|&c| suit_of(c, trump) == suit).collect()
        };
        let Some(led) = trick.led() else {
            let only_trumps = of_suit(trump).len() == hand.len();
            return (is_trump(card, trump) && !broken && !only_trumps).then(|| {
                Fault::new(
                    TRUMP_LEAD,
                    "pluck.md §3.2, PL-1",
                    format!(
                        "{seat} led {card}, a trump, before trumps were broken, holding {}",
                        hand.minus(of_suit(trump))
                    ),
                )
            });
        };
        let led = suit_of(led, trump);
        let holding = of_suit(led);
        if holding.is_empty() || suit_of(card, trump) == led {
            return None;
        }
        let led_name = if led == trump {
            "trump".to_string()
        } else {
            led.letter().to_string()
        };
        Some(Fault::new(
            REVOKE,
            "pluck.md §3.2",
            format!("{seat} played {card} on a {led_name} lead while holding {holding}"),
        ))
    }
}

/// What Pluck carries from hand to hand besides the totals: what the next hand's plucks settle.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = PluckCarried)]
pub struct Carried {
    /// Each player's tricks above (positive) or below (negative) his quota in the previous hand,
    /// counted with that hand's quotas after §5's adjustments (PL-7): a surplus is that many
    /// plucks, a shortfall that many times plucked. `{}` at a game's start (PL-f).
    #[serde(default)]
    #[schema(value_type = BTreeMap<String, i32>)]
    pub over_quota: BTreeMap<Seat, i32>,
}

/// Plucks one player owes another this hand (§3.1, PL-a).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = PluckOwed)]
pub struct Owed {
    pub plucker: Seat,
    pub victim: Seat,
    pub count: u32,
}

/// One pluck made.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[schema(as = PluckMade)]
pub struct Made {
    pub plucker: Seat,
    pub victim: Seat,
    pub card_given: Card,
    /// `null` while the victim has not passed a card back (a record that stops there).
    pub card_returned: Option<Card>,
}

/// What a Pluck adjudication adds.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = PluckDetails)]
pub struct Details {
    /// Each player's quota this hand (§1).
    #[schema(value_type = BTreeMap<String, i32>)]
    pub quotas: BTreeMap<Seat, i32>,
    /// The plucks the previous hand's result owes, paired and ordered as §3.1 and PL-a say
    /// (`[]` in a game's first hand, or when nobody was short).
    pub plucks_owed: Vec<Owed>,
    /// The plucks made, in record order.
    pub plucks: Vec<Made>,
    /// The trick after which trumps may be led (PL-c: the trick where a player unable to follow
    /// first played a trump; 1 when clubs are trump); `null` while they are not broken.
    pub trumps_broken: Option<u8>,
    /// Each player's tricks as counted for points and the next hand's plucks, after §5's
    /// adjustments (PL-b); `{}` when the hand is not scored.
    #[schema(value_type = BTreeMap<String, u32>)]
    pub counted_tricks: BTreeMap<Seat, u32>,
}

/// §4, PL-6: after a hand, the player with the highest total wins once someone has 20 or more;
/// players tied for the highest total play another hand.
fn decided(scores: &PerSide<i32>) -> Option<Decided> {
    let top = scores.sides().map(|s| scores[s]).max()?;
    if top < GAME {
        return None;
    }
    let mut best = scores.sides().filter(|&s| scores[s] == top);
    let winner = best.next()?;
    if best.next().is_some() {
        return None;
    }
    Some(Decided {
        winner: Some(winner),
        at: winner,
        why: format!("{winner} has {top}, the highest total at or past {GAME}"),
    })
}

/// §3.1, PL-a: who plucks whom, how often: surplus players pluck short players, each short player
/// exactly as often as he is short; pluckers clockwise from the new dealer, each against the
/// nearer victim first; surplus plucks left over are lost.
fn owed(table: Table, dealer: Seat, over: &BTreeMap<Seat, i32>) -> Vec<Owed> {
    let from_dealer =
        std::iter::successors(Some(dealer), |&s| Some(table.left(s))).take(table.players());
    let balance = |s: Seat| over.get(&s).copied().unwrap_or(0);
    let mut short: BTreeMap<Seat, i32> = table
        .seats()
        .filter(|&s| balance(s) < 0)
        .map(|s| (s, -balance(s)))
        .collect();
    let mut out = Vec::new();
    for plucker in from_dealer.filter(|&s| balance(s) > 0) {
        let mut plucks = balance(plucker);
        let mut victim = table.left(plucker);
        while victim != plucker {
            let left = short.get(&victim).copied().unwrap_or(0);
            let n = plucks.min(left);
            if n > 0 {
                out.push(Owed {
                    plucker,
                    victim,
                    count: n as u32,
                });
                plucks -= n;
                short.insert(victim, left - n);
            }
            victim = table.left(victim);
        }
    }
    out
}

impl Rules for Pluck {
    type Verb = Verb;
    type Details = Details;
    type Carried = Carried;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn table(&self, _: &Options) -> Table {
        Table::solo(3)
    }

    /// §1: the deal passes left.
    fn rotation(&self, _: &Options) -> Rotation {
        Rotation::Next
    }

    fn setup(&self, _: &Options) -> Setup {
        Setup {
            pack: packs::pluck51(),
            hand: HandSize::Each(TRICKS),
            counted_by: None,
            parts: &[],
        }
    }

    fn already_won(&self, scores: &PerSide<i32>, _: &Options) -> Option<Decided> {
        decided(scores)
    }

    fn start(
        &self,
        record: &HandRecord<Verb>,
        options: &Options,
        table: Table,
        before: &MatchState,
    ) -> Result<Box<dyn HandState<Verb>>, Vec<FieldError>> {
        let pack = packs::pluck51();
        let dealt = deal::check_cards(record, table, &pack)?;
        deal::check_whole_pack(&dealt, &pack)?;
        let dealer = table.resolve(record.dealer).expect("checked with the deal");
        let carried: Carried = details::read(&before.details, "/match_state")?;
        check_carried(table, dealer, &carried)?;
        let owed = owed(table, dealer, &carried.over_quota);
        let mut adj = Adjudication::new(INFO.id, dealer, before, TRICKS);
        adj.tally = PerSide::over(table.sides());
        Ok(Box::new(Hand {
            table,
            play: TrickPlay::new(table, dealt.hands, dealer),
            phase: if owed.is_empty() {
                Phase::Trump
            } else {
                Phase::Plucks
            },
            remaining: owed.clone(),
            owed,
            plucks: Vec::new(),
            // Named by the dealer before any card is judged (`Phase::Trump`).
            trump: Suit::Clubs,
            broken: None,
            offences: Vec::new(),
            penalties: options.choice("revoke_penalty") == "default",
            adj,
        }))
    }
}

/// README C14(b): a carried state no hand can produce is refused. The previous hand's dealer sat
/// on this dealer's right (the deal passes left), so its quotas were: this dealer's right 7, this
/// dealer 6, this dealer's left 4; nobody can be short by more than his quota, and since the
/// quotas add up to the 17 tricks and §5 only ever adds tricks overall, the shortfalls never
/// exceed the surpluses.
fn check_carried(table: Table, dealer: Seat, carried: &Carried) -> Result<(), Vec<FieldError>> {
    let over = &carried.over_quota;
    if over.is_empty() {
        return Ok(());
    }
    let mut errors = Vec::new();
    let pointer = |s: &str| format!("/match_state/over_quota/{s}");
    for (&seat, _) in over.iter().filter(|(s, _)| table.resolve(**s).is_none()) {
        errors.push(FieldError::new(
            pointer(&seat.to_string()),
            format!("{seat} is not a seat of Pluck's table: expected P1, P2 and P3"),
        ));
    }
    for seat in table.seats().filter(|s| !over.contains_key(s)) {
        errors.push(FieldError::new(
            pointer(&seat.to_string()),
            format!(
                "the previous hand's result names every player: {seat}'s tricks above (or below) his quota are missing"
            ),
        ));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let previous_dealer = table.right(dealer);
    for seat in table.seats() {
        let q = quota(table, previous_dealer, seat);
        if over[&seat] < -q {
            errors.push(FieldError::new(
                pointer(&seat.to_string()),
                format!(
                    "{seat}'s quota in the previous hand (dealt by {previous_dealer}) was {q}: he cannot be short by more than {q}, not {}",
                    -over[&seat]
                ),
            ));
        }
    }
    let total: i32 = over.values().sum();
    if errors.is_empty() && total < 0 {
        errors.push(FieldError::new(
            "/match_state/over_quota".into(),
            format!(
                "the quotas add up to the 17 tricks, so the shortfalls cannot exceed the surpluses: these add up to {total}"
            ),
        ));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// §3.1: the jokers are never passed in a pluck, either way (`ineligible_pluck`, PL-g).
fn eligible(index: usize, action: &Action<Verb>, card: Card) -> Result<(), RecordError> {
    match card.suit() {
        Some(_) => Ok(()),
        None => Err(RecordError::on(
            "ineligible_pluck",
            index,
            action,
            format!("{card}: the jokers are never passed in a pluck (§3.1)"),
        )),
    }
}

#[derive(Clone, Debug)]
enum Phase {
    /// §3.1: plucks are owed (`Hand.remaining`).
    Plucks,
    /// PL-g: the victim passes a card back, directly after the pluck (`Hand.plucks`' last).
    Return,
    /// §2: the dealer names trump.
    Trump,
    Play,
    Over,
}

#[derive(Clone)]
struct Hand {
    table: Table,
    play: TrickPlay,
    phase: Phase,
    /// The plucks the previous hand owes, as paired (PL-a).
    owed: Vec<Owed>,
    /// What is still owed of them.
    remaining: Vec<Owed>,
    plucks: Vec<Made>,
    /// Read only once named (`Phase::Play`, `Phase::Over` after play).
    trump: Suit,
    /// The trick in which trumps were broken (PL-c).
    broken: Option<u8>,
    /// Established offences in the order established (PL-b): the offender and the
    /// irregularity's index.
    offences: Vec<(Seat, usize)>,
    /// README "Penalties": `revoke_penalty = none` reports the offences only.
    penalties: bool,
    adj: Adjudication,
}

impl Hand {
    fn judge(&self) -> impl Fn(&Trick, CardSet, Card) -> Option<Fault> + use<> {
        judge(self.trump, self.broken.is_some())
    }

    fn owed_between(&self, plucker: Seat, victim: Seat) -> u32 {
        self.remaining
            .iter()
            .find(|o| o.plucker == plucker && o.victim == victim)
            .map_or(0, |o| o.count)
    }

    /// The pluckers with plucks still owed, in PL-a's default order.
    fn pluckers_due(&self) -> Vec<Seat> {
        let mut due: Vec<Seat> = Vec::new();
        for o in self.remaining.iter().filter(|o| o.count > 0) {
            if !due.contains(&o.plucker) {
                due.push(o.plucker);
            }
        }
        due
    }

    fn still_owed(&self) -> String {
        let owed: Vec<String> = self
            .remaining
            .iter()
            .filter(|o| o.count > 0)
            .map(|o| format!("{} plucks {} {}×", o.plucker, o.victim, o.count))
            .collect();
        owed.join(", ")
    }

    /// A `pluck` (§3.1, PL-g).
    fn pluck(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        p: &Plucked,
    ) -> Result<(), RecordError> {
        let plucker = action.seat;
        if self.owed_between(plucker, p.victim) == 0 {
            return Err(RecordError::on(
                "pluck_not_owed",
                index,
                action,
                format!(
                    "{plucker} has no pluck left against {} (§3.1, PL-a); still owed: {}",
                    p.victim,
                    self.still_owed()
                ),
            ));
        }
        let card = p.card_given;
        eligible(index, action, card)?;
        self.play.give_up(index, plucker, card, "pluck")?;
        // The card is the victim's now; passed back, it is the plucker's again (README C12
        // judges what a seat names by what it holds first).
        self.play.hand_mut(p.victim).insert(card);
        self.plucks.push(Made {
            plucker,
            victim: p.victim,
            card_given: card,
            card_returned: None,
        });
        self.phase = Phase::Return;
        Ok(())
    }

    /// The victim's `pluck_return` (§3.1, PL-3, PL-g).
    fn pluck_return(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        card: Card,
    ) -> Result<(), RecordError> {
        let made = *self.plucks.last().expect("a pluck is pending");
        let victim = made.victim;
        let suit = made.card_given.suit_unchecked();
        eligible(index, action, card)?;
        let hand = self.play.hand(victim);
        let highest = hand
            .of_suit(suit)
            .iter()
            .max_by_key(|c| ORDER.strength(c.rank_unchecked()))
            .expect("the card just given is of that suit");
        if hand.contains(card) && card != highest {
            return Err(RecordError::on(
                "wrong_pluck_return",
                index,
                action,
                format!(
                    "{victim} passes back his highest {} now held, {highest} (the card just received counts, PL-3), not {card}",
                    suit.letter()
                ),
            ));
        }
        self.play.give_up(index, victim, card, "pluck_return")?;
        self.play.hand_mut(made.plucker).insert(card);
        self.plucks.last_mut().expect("pending").card_returned = Some(card);
        let o = self
            .remaining
            .iter_mut()
            .find(|o| o.plucker == made.plucker && o.victim == victim)
            .expect("owed");
        o.count -= 1;
        self.adj.events.push(Event::new(
            PLUCKED,
            index,
            made.plucker,
            vec![made.card_given, card],
            format!(
                "{} plucked {victim}: passed {}, received {card} (§3.1)",
                made.plucker, made.card_given
            ),
        ));
        self.phase = if self.pluckers_due().is_empty() {
            Phase::Trump
        } else {
            Phase::Plucks
        };
        Ok(())
    }

    /// The dealer's `trump` (§2, PL-g); PL-h: then the holder of 2C leads.
    fn name_trump(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        called: &Called,
    ) -> Result<(), RecordError> {
        let dealer = self.adj.dealer;
        let trump: Suit = called.0.parse().map_err(|e: String| {
            RecordError::on("illegal_trump", index, action, format!("{e} (§2, PL-g)"))
        })?;
        self.trump = trump;
        self.adj.trump = Some(trump);
        // §3.2: with clubs trump, trumps are broken from the first trick.
        if trump == Suit::Clubs {
            self.broken = Some(1);
        }
        let leader = self
            .table
            .seats()
            .find(|&s| self.play.hand(s).contains(TWO_OF_CLUBS))
            .expect("2C is dealt and never passed away from the table");
        self.play.lead_next(leader);
        self.adj.events.push(Event::new(
            "trump_named",
            index,
            dealer,
            Vec::new(),
            format!(
                "{dealer} names {} trump; {leader} holds 2C and leads it (§3.2, PL-h)",
                trump.letter()
            ),
        ));
        self.phase = Phase::Play;
        Ok(())
    }

    fn close_trick(&mut self) {
        let trick = self.play.trick;
        let led = suit_of(trick.led().expect("complete"), self.trump);
        let trump = self.trump;
        let pos = trick
            .winner_by(|c| strength(c, led, trump))
            .expect("the led card can win");
        let winner = trick.plays()[pos].seat;
        let (trick, established) = self.play.close_trick(winner);
        // PL-c: only a trump played by a player unable to follow breaks trumps: not one led, not
        // one played as a revoke.
        if self.broken.is_none() && led != trump {
            let revoked = |i: usize| {
                established
                    .iter()
                    .any(|e: &Established| e.action_index == i)
            };
            let breaker = trick
                .plays()
                .iter()
                .enumerate()
                .skip(1)
                .find(|(i, p)| is_trump(p.card, trump) && !revoked(trick.action_index(*i)));
            if let Some((_, p)) = breaker {
                self.broken = Some(trick.number);
                let detail = format!(
                    "{} could not follow and played {}, a trump: trumps may be led from trick {} (§3.2, PL-c)",
                    p.seat,
                    p.card,
                    trick.number + 1
                );
                let index = trick.action_index(trick.position_of(p.seat).expect("played"));
                let event = Event::new("trumps_broken", index, p.seat, vec![p.card], detail);
                self.adj.events.push(event.in_trick(trick.number));
            }
        }
        for e in established {
            let seat = e.seat;
            self.offences.push((seat, self.adj.irregularities.len()));
            let consequence = if self.penalties {
                format!(
                    "{seat}'s tricks count 2 fewer (not below 0) and each other player's 1 more, before points and the next hand's plucks (pluck.md §5 DEFAULT)"
                )
            } else {
                "reported only: the option revoke_penalty is none".to_string()
            };
            self.adj.irregularities.push(e.irregularity(consequence));
        }
        self.adj.tally[self.table.side(winner)].tricks += 1;
        self.adj.tricks.push(TrickReport::new(trick, winner));
        if self.adj.tricks.len() == TRICKS {
            self.play.stop();
            self.phase = Phase::Over;
        }
    }

    /// §4, §5 DEFAULT, PL-b: points per trick above quota, the offences' adjustments in the order
    /// established; the next hand's plucks; the game to 20.
    fn score(&mut self) -> BTreeMap<Seat, u32> {
        let table = self.table;
        let dealer = self.adj.dealer;
        let mut counted: BTreeMap<Seat, i32> = table
            .seats()
            .map(|s| (s, self.adj.tally[table.side(s)].tricks as i32))
            .collect();
        let points =
            |counted: &BTreeMap<Seat, i32>, s: Seat| (counted[&s] - quota(table, dealer, s)).max(0);
        for s in table.seats() {
            let p = points(&counted, s);
            self.adj
                .score(table.side(s), p, ScoreSource::Tricks, OVER_QUOTA, None);
        }
        if self.penalties {
            for &(offender, at) in &self.offences.clone() {
                let before: BTreeMap<Seat, i32> =
                    table.seats().map(|s| (s, points(&counted, s))).collect();
                let was = counted[&offender];
                for s in table.seats() {
                    let c = counted.get_mut(&s).expect("every seat");
                    *c = if s == offender {
                        (*c - 2).max(0)
                    } else {
                        *c + 1
                    };
                }
                for s in table.seats() {
                    self.adj
                        .penalize(at, table.side(s), points(&counted, s) - before[&s]);
                }
                let others: Vec<String> = table
                    .seats()
                    .filter(|&s| s != offender)
                    .map(|s| format!("{s} {}", counted[&s]))
                    .collect();
                self.adj.irregularities[at].consequence.push_str(&format!(
                    ": {offender}'s tricks count {} (from {was}), {}",
                    counted[&offender],
                    others.join(" and ")
                ));
            }
        }
        self.adj.settle();
        let game_over = decided(&self.adj.match_after.scores);
        let m = &mut self.adj.match_after;
        m.next_dealer = Some(table.left(dealer));
        // PL-f: a new game carries no plucks over.
        let over_quota = if game_over.is_some() {
            BTreeMap::new()
        } else {
            table
                .seats()
                .map(|s| (s, counted[&s] - quota(table, dealer, s)))
                .collect()
        };
        m.details = details::Details::of(Carried { over_quota });
        if let Some(d) = game_over {
            m.end_game(d.winner);
        }
        counted.into_iter().map(|(s, c)| (s, c as u32)).collect()
    }

    fn details(&self, counted_tricks: BTreeMap<Seat, u32>) -> Details {
        Details {
            quotas: self
                .table
                .seats()
                .map(|s| (s, quota(self.table, self.adj.dealer, s)))
                .collect(),
            plucks_owed: self.owed.clone(),
            plucks: self.plucks.clone(),
            trumps_broken: self.broken,
            counted_tricks,
        }
    }

    fn due(&self) -> Vec<Seat> {
        match &self.phase {
            Phase::Plucks => self.pluckers_due(),
            Phase::Return => vec![self.plucks.last().expect("pending").victim],
            Phase::Trump => vec![self.adj.dealer],
            Phase::Play => self.play.to_play().into_iter().collect(),
            Phase::Over => Vec::new(),
        }
    }
}

impl HandState<Verb> for Hand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        let dealer = self.adj.dealer;
        match (&self.phase, &action.kind) {
            (Phase::Plucks | Phase::Return | Phase::Trump, Verb::Correct(_)) => {
                Err(RecordError::correct_before_play(index, action))
            }
            (Phase::Plucks, Verb::Pluck(p)) => {
                let p = p.clone();
                self.pluck(index, action, &p)
            }
            // PL-e: trump named, or play begun, with plucks still owed.
            (Phase::Plucks, Verb::Trump(_)) if seat != dealer => Err(RecordError::on(
                "out_of_turn",
                index,
                action,
                format!("{dealer}, the dealer, names trump, after the plucks (§2)"),
            )),
            (Phase::Plucks, Verb::Trump(_) | Verb::Play(_)) => Err(RecordError::on(
                "plucks_incomplete",
                index,
                action,
                format!(
                    "every owed pluck is made before trump is named (PL-e); still owed: {}",
                    self.still_owed()
                ),
            )),
            (Phase::Plucks, _) => {
                let due = self.pluckers_due();
                Err(RecordError::out_of_phase(
                    index,
                    action,
                    if due.contains(&seat) { seat } else { due[0] },
                    &format!(
                        "no pluck is waiting for its return; still owed: {}",
                        self.still_owed()
                    ),
                ))
            }
            (Phase::Return, kind) => {
                let made = *self.plucks.last().expect("pending");
                match kind {
                    Verb::PluckReturn(card) if seat == made.victim => {
                        self.pluck_return(index, action, *card)
                    }
                    _ => Err(RecordError::out_of_phase(
                        index,
                        action,
                        made.victim,
                        &format!(
                            "{} passes back a card for the {} just received from {}: each pluck_return directly follows its pluck (PL-g)",
                            made.victim, made.card_given, made.plucker
                        ),
                    )),
                }
            }
            // PL-g: once every owed pluck is made, a further one is owed by nobody.
            (Phase::Trump | Phase::Play, Verb::Pluck(p)) => Err(RecordError::on(
                "pluck_not_owed",
                index,
                action,
                format!(
                    "{seat} has no pluck left against {}: every owed pluck is made (§3.1, PL-a)",
                    p.victim
                ),
            )),
            (Phase::Trump, Verb::Trump(called)) if seat == dealer => {
                let called = called.clone();
                self.name_trump(index, action, &called)
            }
            (Phase::Trump, _) => Err(RecordError::out_of_phase(
                index,
                action,
                dealer,
                &format!("{dealer}, the dealer, names trump now (§2)"),
            )),
            (Phase::Play, Verb::Play(card)) => {
                let first_lead = !self.play.started();
                if first_lead && self.play.to_play() == Some(seat) && *card != TWO_OF_CLUBS {
                    return Err(RecordError::on(
                        "wrong_first_lead",
                        index,
                        action,
                        format!("{seat} holds 2C and leads it to trick 1, not {card} (§3.2, PL-e)"),
                    ));
                }
                self.play.play_judged(index, seat, *card, self.judge())?;
                if self.play.is_complete() {
                    self.close_trick();
                }
                Ok(())
            }
            (Phase::Play, Verb::Correct(card)) => {
                self.play.correct(index, seat, *card, self.judge())?;
                // PL-d: a corrected lead has the followers' cards judged again against it.
                if seat == self.play.trick.leader {
                    self.play.rejudge_after(0, self.judge());
                }
                Ok(())
            }
            (Phase::Play, _) => Err(RecordError::out_of_phase(
                index,
                action,
                self.play.to_play().unwrap_or(seat),
                "trump is named: only cards (and corrections) follow",
            )),
            (Phase::Over, _) => Err(RecordError::after_end(
                index,
                action,
                "all 17 tricks have been played",
            )),
        }
    }

    fn view(&self) -> TableView {
        let phase = match self.phase {
            Phase::Plucks => "plucks",
            Phase::Return => "pluck_return",
            Phase::Trump => "trump",
            Phase::Play => "play",
            Phase::Over => "over",
        };
        let mut view = TableView::new(phase, self.due(), &self.play, &self.adj.match_after);
        view.trump = self.adj.trump;
        view.tally = self.adj.tally.clone();
        view.irregularities = self.adj.irregularities.clone();
        view.details = details::Details::of(self.details(BTreeMap::new()));
        view
    }

    fn locus(&self) -> Locus {
        Locus::of_play(&self.play, self.due().is_empty())
    }

    fn candidates(&self) -> Vec<Action<Verb>> {
        match &self.phase {
            Phase::Plucks => self
                .remaining
                .iter()
                .filter(|o| o.count > 0)
                .flat_map(|o| {
                    self.play.hand(o.plucker).iter().map(move |c| Action {
                        seat: o.plucker,
                        kind: Verb::Pluck(Plucked {
                            victim: o.victim,
                            card_given: c,
                        }),
                    })
                })
                .collect(),
            Phase::Return => {
                let victim = self.plucks.last().expect("pending").victim;
                self.play
                    .hand(victim)
                    .iter()
                    .map(|c| Action {
                        seat: victim,
                        kind: Verb::PluckReturn(c),
                    })
                    .collect()
            }
            Phase::Trump => Suit::ALL
                .iter()
                .map(|s| Action {
                    seat: self.adj.dealer,
                    kind: Verb::Trump(Called(s.letter().to_string())),
                })
                .collect(),
            Phase::Play => self.play.candidates(Verb::Play, Verb::Correct),
            Phase::Over => Vec::new(),
        }
    }

    fn faulted(&self, index: usize) -> bool {
        self.adj.faulted(index) || self.play.faulted(index)
    }

    fn finish(mut self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        self.adj.corrected_revokes = std::mem::take(&mut self.play.corrected);
        let due = self.due();
        let one = (due.len() == 1).then(|| due[0]);
        let ending = match &self.phase {
            Phase::Over => Ending::Over,
            Phase::Plucks => Ending::Open {
                due: one,
                detail: format!(
                    "the record stops in the plucks; still owed: {}",
                    self.still_owed()
                ),
            },
            Phase::Return => Ending::Open {
                due: one,
                detail: "the record stops before the victim passes a card back (§3.1)".into(),
            },
            Phase::Trump => Ending::Open {
                due: one,
                detail: format!("the record stops before {} names trump", self.adj.dealer),
            },
            Phase::Play => Ending::Open {
                due: one,
                detail: format!(
                    "the record stops in trick {} of {TRICKS}: every trick is played out",
                    self.play.trick.number
                ),
            },
        };
        let counted = if self.adj.unscored(error, ending) {
            for i in &mut self.adj.irregularities {
                i.consequence =
                    "none: the record error leaves the hand unscored (README C5)".into();
            }
            BTreeMap::new()
        } else {
            self.score()
        };
        self.adj.details = details::Details::of(self.details(counted));
        self.adj
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(n: usize) -> Seat {
        Table::solo(3).seat(n - 1)
    }

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    fn over(values: [i32; 3]) -> BTreeMap<Seat, i32> {
        (1..=3).map(|n| (p(n), values[n - 1])).collect()
    }

    fn o(plucker: usize, victim: usize, count: u32) -> Owed {
        Owed {
            plucker: p(plucker),
            victim: p(victim),
            count,
        }
    }

    /// §3.1: one surplus against two shortfalls takes from each as many as each is short; two
    /// surpluses against one shortfall each take theirs (PL-a: clockwise from the new dealer).
    #[test]
    fn plucks_pair_surplus_with_shortfall() {
        let t = Table::solo(3);
        assert_eq!(
            owed(t, p(1), &over([3, -1, -2])),
            vec![o(1, 2, 1), o(1, 3, 2)]
        );
        assert_eq!(
            owed(t, p(2), &over([3, -1, -2])),
            vec![o(1, 2, 1), o(1, 3, 2)]
        );
        assert_eq!(
            owed(t, p(1), &over([1, 2, -3])),
            vec![o(1, 3, 1), o(2, 3, 2)]
        );
        assert_eq!(owed(t, p(3), &over([0, 0, 0])), vec![]);
        assert!(owed(t, p(1), &BTreeMap::new()).is_empty());
    }

    /// PL-a: uneven plucks after a §5 adjustment: the victim is plucked only as often as he is
    /// short, pluckers clockwise from the new dealer; the rest is lost.
    #[test]
    fn uneven_plucks_go_to_the_plucker_nearer_the_dealer() {
        let t = Table::solo(3);
        // P3 deals: P3 plucks first (2 of P2's 3), then P1 the one left.
        assert_eq!(
            owed(t, p(3), &over([2, -3, 2])),
            vec![o(3, 2, 2), o(1, 2, 1)]
        );
        // P1 deals: P1 takes 2, P3 the one left, one of P3's lost.
        assert_eq!(
            owed(t, p(1), &over([2, -3, 2])),
            vec![o(1, 2, 2), o(3, 2, 1)]
        );
    }

    /// §4, PL-2, PL-5: BJ over LJ over the ace of trumps; jokers follow as trumps.
    #[test]
    fn jokers_are_the_highest_trumps() {
        let s = |x: &str| strength(c(x), Suit::Hearts, Suit::Spades);
        assert!(s("BJ") > s("LJ") && s("LJ") > s("AS") && s("AS") > s("2C").max(s("AH")));
        assert_eq!(s("KD"), None);
        assert_eq!(suit_of(c("LJ"), Suit::Diamonds), Suit::Diamonds);
    }

    /// §3.2, PL-1: a trump (or a joker) not led before broken unless the hand is all trumps.
    #[test]
    fn trumps_are_not_led_before_broken() {
        let t = Trick::new(2, p(1));
        let hand = CardSet::of(&[c("BJ"), c("AS"), c("3H")]);
        let j = judge(Suit::Spades, false);
        assert_eq!(j(&t, hand, c("BJ")).unwrap().code, TRUMP_LEAD);
        assert_eq!(j(&t, hand, c("AS")).unwrap().code, TRUMP_LEAD);
        assert!(j(&t, hand, c("3H")).is_none());
        assert!(judge(Suit::Spades, true)(&t, hand, c("AS")).is_none());
        let trumps = CardSet::of(&[c("BJ"), c("AS")]);
        assert!(j(&t, trumps, c("AS")).is_none());
    }

    #[test]
    fn a_joker_lead_is_followed_by_trumps() {
        let mut t = Trick::new(2, p(1));
        t.push(p(1), c("LJ"), 0);
        let j = judge(Suit::Hearts, true);
        let hand = CardSet::of(&[c("3H"), c("AS")]);
        assert_eq!(j(&t, hand, c("AS")).unwrap().code, REVOKE);
        assert!(j(&t, hand, c("3H")).is_none());
    }

    #[test]
    fn the_game_needs_a_single_highest_total_at_20() {
        let t = Table::solo(3);
        let mut s = PerSide::over(t.sides());
        s[t.side(p(1))] = 21;
        s[t.side(p(2))] = 21;
        assert!(decided(&s).is_none());
        s[t.side(p(3))] = 22;
        assert_eq!(decided(&s).unwrap().winner, Some(t.side(p(3))));
        s[t.side(p(3))] = 19;
        s[t.side(p(1))] = 20;
        s[t.side(p(2))] = 19;
        assert_eq!(decided(&s).unwrap().winner, Some(t.side(p(1))));
    }
}
