//! Tong-Its (`docs/rules/tong-its.md`): three players each for himself, a rummy game of the
//! 52-card pack. Each antes 2 chips to the pot; the dealer has 13 cards, the others 12, and the
//! other 15 are the stock. A turn draws (the stock's top card, or the top discard only to meld it
//! at once), melds and lays off, and discards. The hand ends by a tongit (a hand emptied), by a
//! `draw` call with its showdown of deadwood, or when the stock runs out; each loser pays the
//! winner, the pot goes to a player who wins two hands in a row, and the winner deals next.

use crate::cards::{Card, CardSet, Rank, packs};
use crate::details;
use crate::engine::rummy::{self, Ace, Phase, SetShape, Turns};
use crate::engine::{
    Adjudication, Effect, Ending, Event, FieldError, FirstDecides, GameInfo, HandState,
    Irregularity, Locus, MAX_PLAYS, MatchState, OptionKind, OptionSpec, Options, PerSide,
    RecordError, Rotation, Rules, ScoreSource, Seat, Table, TableView, deal,
};
use crate::record::{Action, HandRecord, Placeholder, Yes};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;

pub struct TongIts;

crate::verbs! {
    /// What a record of Tong-Its can say.
    pub enum Verb in "Tong-Its" {
        Draw(Draw) = "draw": "The turn's draw: the stock's top card, or the top discard (which the seat's next action must meld, exposed).",
        CallDraw(Yes) = "call_draw": "At the start of his turn, instead of drawing, the seat calls \"draw\" to end the hand (value `true`).",
        Fold(Yes) = "fold": "An opponent's answer to a draw call: he does not challenge (value `true`).",
        Challenge(Yes) = "challenge": "An opponent's answer to a draw call: he challenges, and shows his hand (value `true`).",
        Meld(MeldAction) = "meld": "A meld laid on the table: a set of 3 or 4 of a rank or a run of 3 or more of a suit; face down only for a concealed four of a kind.",
        LayOff(LayOff) = "lay_off": "A card laid off onto a meld on the table (any player's), named by its place in the order of exposure.",
        Discard(Card) = "discard": "The card that ends the turn.",
        Tongit(Yes) = "tongit": "The seat has no card left and calls tongit (value `true`): derived, it may follow the action that emptied the hand.",
        Correct(Card) = "correct": "Every game's record has it; Tong-Its has nothing to correct, so it is always `invalid_correct`.",
    }
}

/// Where a draw comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = TongItsSource)]
pub enum Source {
    Stock,
    Discard,
}

/// A draw: from the stock or the discard pile, and the card drawn where the record names it (it
/// must be the stock's next card, or the top discard: else `wrong_draw`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TongItsDraw)]
pub struct Draw {
    pub from: Source,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<Card>,
}

impl Placeholder for Draw {
    const PLACEHOLDER: &'static str =
        "{\"from\": \"stock|discard\", \"card\": \"<card, optional>\"}";
}

/// A meld laid on the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TongItsMeld)]
pub struct MeldAction {
    pub cards: Vec<Card>,
    /// Face down: only a concealed four of a kind (§3.1).
    #[serde(default)]
    pub face_down: bool,
}

impl Placeholder for MeldAction {
    const PLACEHOLDER: &'static str = "{\"cards\": [\"7S\", \"7H\", \"7D\"], \"face_down\": false}";
}

/// A lay-off: the card and the meld it goes onto (TI-g: its place in the order of exposure on the
/// whole table, from 0).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TongItsLayOff)]
pub struct LayOff {
    pub card: Card,
    pub target_meld: usize,
}

impl Placeholder for LayOff {
    const PLACEHOLDER: &'static str = "{\"card\": \"8S\", \"target_meld\": 0}";
}

/// How the hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = TongItsEnding)]
pub enum Ended {
    /// A player emptied his hand (§3.3).
    Tongit,
    /// A draw call both opponents folded to.
    Draw,
    /// A draw call challenged: the showdown of deadwood decided.
    ChallengedDraw,
    /// The stock ran out: the opened players compared deadwood (or nobody had opened).
    StockExhausted,
    /// An illegal draw call or challenge ended the hand with no winner (§5 DEFAULT, TI-b).
    Irregularity,
}

/// What Tong-Its adds to the adjudication.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TongItsDetails)]
pub struct Details {
    /// How the hand ended; `null` when it did not.
    pub ended: Option<Ended>,
    /// The deadwood of each player who showed his hand (a showdown, the stock exhausted): the
    /// least over every arrangement of his cards into melds (TI-6).
    #[schema(value_type = BTreeMap<String, u32>)]
    pub deadwood: BTreeMap<Seat, u32>,
    /// The players who opened (exposed a meld, or laid a four face down).
    pub opened: Vec<Seat>,
    /// The melds on the table, in the order of exposure (`lay_off.target_meld` counts in it).
    #[schema(value_type = Vec<Object>)]
    pub melds: Vec<rummy::Meld>,
    /// The pot after the hand (what `match_after.pot` carries).
    pub pot: u32,
}

/// What Tong-Its carries in the match state (§4): the pot, and the streak of the last winner.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TongItsCarried)]
pub struct Carried {
    /// Chips in the pot: the antes of every hand since it was last won.
    #[serde(default)]
    pub pot: u32,
    /// The winner of the last hand, while his streak stands; `null` when none.
    #[serde(default)]
    pub last_winner: Option<Seat>,
    /// His wins in a row towards the pot: 1, or 0 just after he took it (TI-5).
    #[serde(default)]
    pub streak: u32,
}

/// What the table sees beside the hands.
#[derive(Debug, Serialize)]
struct ViewDetails {
    stock: usize,
    discard_pile: Vec<Card>,
    melds: Vec<rummy::Meld>,
    opened: Vec<Seat>,
    /// The draw call being answered: the caller, and who challenged so far.
    #[serde(skip_serializing_if = "Option::is_none")]
    draw_call: Option<Seat>,
    /// The top discard, drawn, that the seat's next action must meld.
    #[serde(skip_serializing_if = "Option::is_none")]
    must_meld: Option<Card>,
    pot: u32,
}

static INFO: GameInfo = GameInfo {
    id: "tong-its",
    name: "Tong-Its",
    tables: crate::engine::Tables(&[Table::solo(3)]),
    deck: "52-card pack; 13 cards to the dealer, 12 to the others, 15 in the stock",
    // §4: no target; the match lasts an agreed number of hands (`match_hands`).
    game_target: 0,
    options: &[
        OptionSpec {
            name: "condition_b",
            kind: OptionKind::Choice {
                values: &["own", "none"],
                default: "own",
            },
            description: "Draw-call condition (b): `own`, the caller laid no card off onto his own melds \
                          during his previous turn (TI-1); `none`, he laid no card off onto any meld then.",
            rule: "tong-its.md §6 TI-1",
        },
        OptionSpec {
            name: "folder_pays",
            kind: OptionKind::Choice {
                values: &["3", "1"],
                default: "3",
            },
            description: "What a player who folded pays for the win in a challenged draw: 3 like every \
                          loser (TI-3), or 1.",
            rule: "tong-its.md §6 TI-3",
        },
        OptionSpec {
            name: "all_compare_if_none_opened",
            kind: OptionKind::Flag { default: false },
            description: "When the stock runs out and nobody has opened, every player compares deadwood \
                          (the ties as usual) instead of the hand having no winner (TI-4).",
            rule: "tong-its.md §6 TI-4",
        },
        OptionSpec {
            name: "penalties",
            kind: OptionKind::Choice {
                values: &["default", "none"],
                default: "default",
            },
            description: "default: the offender of an illegal draw call or challenge pays 3 chips to each \
                          other player (§5 DEFAULT); none: the irregularity still ends the hand with no \
                          winner, and no chips move for it.",
            rule: "tong-its.md §5",
        },
        OptionSpec {
            name: "match_hands",
            kind: OptionKind::Count {
                min: 0,
                max: 10_000,
                default: 0,
            },
            description: "The agreed length of the match in hands: after that many the match is over and \
                          the highest balance wins (TI-e; equal highest: no single winner, TI-h). 0: not \
                          agreed, the match never ends by itself.",
            rule: "tong-its.md §4, TI-e, TI-h",
        },
    ],
    rules: "docs/rules/tong-its.md",
    irregularities: &["illegal_draw_call", "illegal_challenge"],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    record_errors: &[
        "out_of_turn",
        "unexpected_action",
        "illegal_discard_draw",
        "wrong_draw",
        "invalid_meld",
        "invalid_lay_off",
        "invalid_tongit",
        "card_not_held",
        "card_played_twice",
        "invalid_correct",
        "action_after_end",
        "incomplete_hand",
    ],
    events: &[
        "drew",
        "melded",
        "laid_off",
        "discarded",
        "draw_called",
        "folded",
        "challenged",
        "tongit",
        "showdown",
        "stock_exhausted",
    ],
    score_codes: &[
        "ante",
        "pot",
        "tongit",
        "challenged_draw",
        "win",
        "concealed_four",
        "never_opened",
        "aces",
        "illegal_draw_call",
        "illegal_challenge",
    ],
    titles: crate::engine::Titles(&[
        (
            "illegal_draw_call",
            "Draw called when the rules do not allow it",
        ),
        (
            "illegal_challenge",
            "Challenge by a player who has not opened",
        ),
        (
            "illegal_discard_draw",
            "Top discard taken without melding it at once",
        ),
        ("wrong_draw", "Card drawn that is not the one on top"),
        ("invalid_meld", "Meld that is no set or run"),
        ("invalid_lay_off", "Lay-off that does not fit its meld"),
        ("invalid_tongit", "Tongit called while holding cards"),
        ("drew", "Drew"),
        ("melded", "Melded"),
        ("laid_off", "Laid off"),
        ("discarded", "Discarded"),
        ("draw_called", "Draw called"),
        ("folded", "Folded"),
        ("challenged", "Challenged"),
        ("tongit", "Tongit"),
        ("showdown", "Hands shown"),
        ("stock_exhausted", "Stock exhausted"),
        ("ante", "Ante to the pot"),
        ("pot", "Pot won"),
        ("challenged_draw", "Challenged draw won"),
        ("win", "Hand won"),
        ("concealed_four", "Concealed four of a kind"),
        ("never_opened", "Never opened"),
        ("aces", "Aces"),
    ]),
};

/// §1: 12 cards each, a 13th to the dealer; 15 in the stock.
const DEALT: usize = 12;
const STOCK: u32 = 15;
/// §4: each player antes 2 chips a hand.
const ANTE: i32 = 2;
/// §5 DEFAULT: the offender pays 3 chips to each other player.
const PENALTY: i32 = 3;

/// Deadwood values (§1): A 1, J Q K 10, others their pips.
fn value(card: Card) -> u32 {
    match card.rank_unchecked() {
        Rank::Ace => 1,
        r if r >= Rank::Ten => 10,
        r => r as u32,
    }
}

/// §3.1: a set of 3 or 4 of a rank, or a run of 3 or more of a suit, the ace low.
fn is_meld(cards: &[Card]) -> bool {
    let set = SetShape::of(cards, |_| false).is_some_and(|s| (3..=4).contains(&s.naturals));
    set || (cards.len() >= 3 && rummy::is_run(cards, Ace::Low))
}

/// The least deadwood of `hand` (TI-6), its melds concealed or not.
fn deadwood(hand: CardSet) -> u32 {
    let cards: Vec<Card> = hand.iter().collect();
    rummy::least_deadwood(&cards, &rummy::sets_and_runs(hand, Ace::Low), value).0
}

fn names(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

impl Rules for TongIts {
    type Verb = Verb;
    type Details = Details;
    type Carried = Carried;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn table(&self, _: &Options) -> Table {
        Table::solo(3)
    }

    fn setup(&self, _: &Options) -> deal::Setup {
        deal::Setup {
            pack: packs::standard52(),
            hand: deal::HandSize::Dealer {
                dealer: DEALT + 1,
                others: DEALT,
            },
            counted_by: None,
            parts: &[deal::Holds {
                part: deal::Part::Stock,
                what: "the stock in order, top card first: the 15 cards not dealt",
                count: deal::Count::Between(STOCK, STOCK),
            }],
        }
    }

    /// §4: the winner deals next; with no winner the same dealer deals again.
    fn rotation(&self, _: &Options) -> Rotation {
        Rotation::ByResult(
            "the winner deals the next hand; with no winner the same dealer deals (§4, TI-b)",
        )
    }

    fn start(
        &self,
        record: &HandRecord<Verb>,
        options: &Options,
        table: Table,
        before: &MatchState,
    ) -> Result<Box<dyn HandState<Verb>>, Vec<FieldError>> {
        let pack = packs::standard52();
        let mut dealt = deal::check_cards(record, table, &pack)?;
        deal::check_undealt(&record.stock, "stock", &pack, &mut dealt)?;
        deal::check_whole_pack(&dealt, &pack)?;
        let carried: Carried = details::read(&before.details, "/match_state")?;
        check_carried(&carried, table, before)?;
        let match_hands = options.count("match_hands");
        if match_hands > 0 && before.hands_played >= match_hands {
            return Err(vec![FieldError::new(
                "/match_state/hands_played".into(),
                format!("the agreed match of {match_hands} hands is already complete"),
            )]);
        }
        let dealer = table.resolve(record.dealer).expect("checked with the deal");
        let mut adj = Adjudication::new(INFO.id, dealer, before, 0);
        adj.tally = PerSide::over(table.sides());
        let mut hands = [CardSet::EMPTY; MAX_PLAYS];
        for s in table.seats() {
            hands[s.pos()] = dealt.hands[s.pos()];
        }
        Ok(Box::new(Hand {
            // §2: the dealer's first turn has no draw.
            turns: Turns::new(table, hands, &[&record.stock], 1, dealer, Phase::Play),
            dealer,
            fresh: true,
            opened: [false; MAX_PLAYS],
            laid_own: [false; MAX_PLAYS],
            laid_any: [false; MAX_PLAYS],
            laid_on_by_others: [false; MAX_PLAYS],
            must_meld: None,
            last_drawer: None,
            call: None,
            emptied: None,
            ended: None,
            winner: None,
            deadwood: BTreeMap::new(),
            first: FirstDecides::default(),
            carried,
            options: Settings {
                own_only: options.choice("condition_b") == "own",
                folder_pays: if options.choice("folder_pays") == "1" {
                    1
                } else {
                    3
                },
                all_compare: options.flag("all_compare_if_none_opened"),
                penalties: options.choice("penalties") == "default",
                match_hands,
            },
            adj,
        }))
    }
}

/// README C14: a carried state no hand can reach is refused. Chips only move between the players
/// and the pot, so the balances and the pot add up to 0; the pot holds 6 chips for each hand since
/// it was last won; a streak is 0 or 1 (the second win takes the pot, TI-5), 1 only with a last
/// winner at the table, and 0 with one only when he has just taken the pot.
fn check_carried(c: &Carried, table: Table, before: &MatchState) -> Result<(), Vec<FieldError>> {
    let at =
        |field: &str, why: String| Err(vec![FieldError::new(format!("/match_state/{field}"), why)]);
    let ante = ANTE as u32 * 3;
    if !c.pot.is_multiple_of(ante) || c.pot / ante > before.hands_played {
        return at(
            "pot",
            format!(
                "the pot holds 6 chips for each hand since it was last won: {} after {} hands is not such a pot",
                c.pot, before.hands_played
            ),
        );
    }
    let balances: i64 = table.sides().map(|s| i64::from(before.scores[s])).sum();
    if balances + i64::from(c.pot) != 0 {
        return at(
            "scores",
            format!(
                "chips only move between the players and the pot: the balances ({balances}) and the pot ({}) must add up to 0",
                c.pot
            ),
        );
    }
    if let Some(w) = c.last_winner
        && table.resolve(w).is_none()
    {
        return at(
            "last_winner",
            format!("no seat {w} at this table: expected {}", table.names()),
        );
    }
    match (c.streak, c.last_winner) {
        (0, None) | (1, Some(_)) => Ok(()),
        (0, Some(_)) if c.pot == 0 => Ok(()),
        (0, Some(_)) => at(
            "streak",
            "a streak of 0 with a last winner means he has just taken the pot, which is then empty"
                .into(),
        ),
        (1, None) => at(
            "last_winner",
            "a streak of 1 is the last winner's: name him".into(),
        ),
        (n, _) => at(
            "streak",
            format!(
                "{n} wins in a row: the second takes the pot and the streak restarts (TI-5), so it is 0 or 1"
            ),
        ),
    }
}

#[derive(Clone, Copy)]
struct Settings {
    /// TI-1: condition (b) looks at lay-offs onto his own melds only (`condition_b = own`).
    own_only: bool,
    /// TI-3: what a folder pays for the win in a challenged draw.
    folder_pays: i32,
    /// TI-4's variant.
    all_compare: bool,
    penalties: bool,
    match_hands: u32,
}

/// A draw call being answered (§3.3, TI-g).
#[derive(Clone)]
struct Call {
    caller: Seat,
    /// The seat whose answer is due.
    due: Seat,
    folded: Vec<Seat>,
    challengers: Vec<Seat>,
}

#[derive(Clone)]
struct Hand {
    turns: Turns,
    dealer: Seat,
    /// Nothing done yet in this turn (a draw may be called).
    fresh: bool,
    opened: [bool; MAX_PLAYS],
    /// Whether the seat laid a card off onto his own melds (any melds) during his current or
    /// previous turn: condition (b) (TI-1); reset when his next turn starts.
    laid_own: [bool; MAX_PLAYS],
    laid_any: [bool; MAX_PLAYS],
    /// Whether another player laid off onto the seat's melds since the end of his previous turn:
    /// condition (c) (TI-d).
    laid_on_by_others: [bool; MAX_PLAYS],
    /// The top discard drawn, which the next action must meld, exposed (§3.2), with the draw's index.
    must_meld: Option<(Card, usize)>,
    /// Who drew the last stock card: the hand ends when his turn does (§3.3).
    last_drawer: Option<Seat>,
    call: Option<Call>,
    /// The seat whose hand is empty and the action that emptied it: a tongit may be recorded
    /// right after it (TI-g).
    emptied: Option<(Seat, usize)>,
    ended: Option<Ended>,
    winner: Option<Seat>,
    deadwood: BTreeMap<Seat, u32>,
    first: FirstDecides,
    carried: Carried,
    options: Settings,
    adj: Adjudication,
}

impl Hand {
    fn opened_seats(&self) -> Vec<Seat> {
        self.turns
            .table
            .seats()
            .filter(|s| self.opened[s.pos()])
            .collect()
    }

    fn draw(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        draw: &Draw,
    ) -> Result<(), RecordError> {
        let seat = action.seat;
        if self.fresh && self.turns.phase() == Phase::Play {
            return Err(RecordError::out_of_phase(
                index,
                action,
                self.turns.to_act(),
                "the dealer starts with his 13 cards: his first turn has no draw (§2)",
            ));
        }
        self.turns
            .expect(index, action, Phase::Draw, "a draw, or a draw call")?;
        self.start_turn(seat);
        match draw.from {
            Source::Stock => {
                let Some(card) = self.turns.draw((index, seat, "draw/card"), 0, draw.card)? else {
                    return Err(RecordError::unexpected(
                        index,
                        action,
                        "the stock is empty".into(),
                    ));
                };
                if self.turns.stocks[0].is_empty() {
                    self.last_drawer = Some(seat);
                }
                self.adj.events.push(Event::new(
                    "drew",
                    index,
                    seat,
                    vec![card],
                    format!("{seat} draws {card} from the stock"),
                ));
            }
            Source::Discard => {
                let taken =
                    self.turns
                        .take_from_pile((index, seat, "draw/card"), 0, 1, draw.card)?;
                let Some(taken) = taken else {
                    return Err(RecordError::on(
                        "illegal_discard_draw",
                        index,
                        action,
                        "the discard pile is empty (TI-f)".into(),
                    ));
                };
                let card = taken[0];
                // §3.2: only if it completes a new meld with cards from hand.
                let hand = self.turns.hand(seat);
                if !rummy::sets_and_runs(hand, Ace::Low)
                    .iter()
                    .any(|m| m.contains(&card))
                {
                    return Err(RecordError::on(
                        "illegal_discard_draw",
                        index,
                        action,
                        format!(
                            "{card} completes no new meld with {seat}'s cards: the top discard may be taken only to meld it at once (§3.2)"
                        ),
                    ));
                }
                self.must_meld = Some((card, index));
                self.adj.events.push(Event::new(
                    "drew",
                    index,
                    seat,
                    vec![card],
                    format!("{seat} takes {card}, the top discard, to meld it"),
                ));
            }
        }
        Ok(())
    }

    /// The seat's turn begins: condition (b) looks at this turn from now on.
    fn start_turn(&mut self, seat: Seat) {
        self.fresh = false;
        self.laid_own[seat.pos()] = false;
        self.laid_any[seat.pos()] = false;
    }

    /// Why `seat` may not call a draw now (§3.3 (a)–(c)), or `None`.
    fn call_fault(&self, seat: Seat) -> Option<String> {
        let p = seat.pos();
        if !self.opened[p] {
            return Some(format!("{seat} has not opened (§3.3 (a))"));
        }
        let (laid, onto) = if self.options.own_only {
            (self.laid_own[p], "his own melds")
        } else {
            (self.laid_any[p], "a meld")
        };
        if laid {
            return Some(format!(
                "{seat} laid a card off onto {onto} during his previous turn (§3.3 (b), TI-1)"
            ));
        }
        if self.laid_on_by_others[p] {
            return Some(format!(
                "another player laid a card off onto {seat}'s melds since his last turn (§3.3 (c), TI-d)"
            ));
        }
        None
    }

    fn call_draw(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        if !self.fresh {
            return Err(RecordError::out_of_phase(
                index,
                action,
                self.turns.to_act(),
                &format!(
                    "{} has begun his turn: a draw is called at its start, before drawing (TI-2)",
                    self.turns.to_act()
                ),
            ));
        }
        if action.seat != self.turns.to_act() {
            return Err(RecordError::on(
                "out_of_turn",
                index,
                action,
                format!("it is {}'s turn", self.turns.to_act()),
            ));
        }
        self.adj.events.push(Event::new(
            "draw_called",
            index,
            seat,
            Vec::new(),
            format!("{seat} calls draw"),
        ));
        if let Some(why) = self.call_fault(seat) {
            self.offence("illegal_draw_call", index, seat, why);
            return Ok(());
        }
        self.call = Some(Call {
            caller: seat,
            due: self.turns.table.next(seat),
            folded: Vec::new(),
            challengers: Vec::new(),
        });
        Ok(())
    }

    fn answer(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        challenge: bool,
    ) -> Result<(), RecordError> {
        let seat = action.seat;
        let Some(call) = self.call.as_mut() else {
            return Err(RecordError::out_of_phase(
                index,
                action,
                self.turns.to_act(),
                "no draw has been called: a fold or a challenge answers a draw call",
            ));
        };
        if seat != call.due {
            return Err(RecordError::on(
                "out_of_turn",
                index,
                action,
                format!(
                    "{} answers {}'s draw call now (clockwise from his left, TI-g)",
                    call.due, call.caller
                ),
            ));
        }
        let caller = call.caller;
        let next = self.turns.table.next(seat);
        if challenge {
            call.challengers.push(seat);
        } else {
            call.folded.push(seat);
        }
        call.due = next;
        if challenge {
            self.adj.events.push(Event::new(
                "challenged",
                index,
                seat,
                Vec::new(),
                format!("{seat} challenges {caller}'s draw"),
            ));
            // §3.3: only an opened player may challenge.
            if !self.opened[seat.pos()] {
                self.call = None;
                self.offence(
                    "illegal_challenge",
                    index,
                    seat,
                    format!("{seat} challenges {caller}'s draw but has not opened (§3.3)"),
                );
                return Ok(());
            }
        } else {
            self.adj.events.push(Event::new(
                "folded",
                index,
                seat,
                Vec::new(),
                format!("{seat} folds to {caller}'s draw"),
            ));
        }
        if next == caller {
            self.showdown(index);
        }
        Ok(())
    }

    /// Both opponents have answered (§3.3): all folded, the caller wins; else the caller and the
    /// challengers show, the lowest deadwood wins, a tie going to the challenger nearest the
    /// caller's left.
    fn showdown(&mut self, index: usize) {
        let call = self.call.take().expect("a call is answered");
        if call.challengers.is_empty() {
            self.end(Ended::Draw, Some(call.caller));
            return;
        }
        // The challengers clockwise from the caller's left, then the caller: the first lowest wins.
        let order: Vec<Seat> = call
            .challengers
            .iter()
            .copied()
            .chain([call.caller])
            .collect();
        let winner = self.lowest(&order);
        let shown: Vec<String> = order
            .iter()
            .map(|s| format!("{s} {}", self.deadwood[s]))
            .collect();
        self.adj.events.push(Event::new(
            "showdown",
            index,
            call.caller,
            Vec::new(),
            format!(
                "hands shown, deadwood {}: {winner} wins (§3.3)",
                shown.join(", ")
            ),
        ));
        self.end(Ended::ChallengedDraw, Some(winner));
    }

    /// The first of `order` with the least deadwood, each one's deadwood noted.
    fn lowest(&mut self, order: &[Seat]) -> Seat {
        let mut best: Option<(u32, Seat)> = None;
        for &s in order {
            let d = deadwood(self.turns.hand(s));
            self.deadwood.insert(s, d);
            if best.is_none_or(|(b, _)| d < b) {
                best = Some((d, s));
            }
        }
        best.expect("someone shows").1
    }

    fn end(&mut self, ended: Ended, winner: Option<Seat>) {
        self.ended = Some(ended);
        self.winner = winner;
        self.turns.end();
    }

    /// An illegal call or challenge (§5 DEFAULT, TI-b): the hand ends at once with no winner.
    fn offence(&mut self, code: &'static str, index: usize, seat: Seat, explanation: String) {
        let side = self.turns.table.side(seat);
        self.first.offence(side, index, code);
        let consequence = if self.options.penalties {
            format!(
                "the hand ends with no winner: {seat} pays {PENALTY} chips to each other player, the antes stay in the pot, streaks are broken and the same dealer deals again (§5 DEFAULT, TI-b)"
            )
        } else {
            "the hand ends with no winner and no chips move for it (penalties none): the antes stay in the pot, streaks are broken and the same dealer deals again (TI-b)".into()
        };
        self.adj.irregularities.push(Irregularity {
            code,
            action_index: Some(index),
            trick: None,
            seat,
            card: None,
            rule: "tong-its.md §3.3, §5",
            explanation,
            consequence,
            effect: Effect {
                points: PerSide::over([]),
                decides: Some(crate::engine::Decides::Hand),
            },
        });
        self.end(Ended::Irregularity, None);
    }

    fn meld(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        meld: &MeldAction,
    ) -> Result<(), RecordError> {
        let seat = action.seat;
        self.expect_play(index, action)?;
        let cards = &meld.cards;
        // Possession first (README C12), then the shape.
        self.turns
            .meld((index, seat, "meld/cards"), cards, meld.face_down)?;
        let invalid = |detail: String| Err(RecordError::on("invalid_meld", index, action, detail));
        if !is_meld(cards) {
            return invalid(format!(
                "{} is no meld: 3 or 4 of a rank, or 3 or more in sequence of one suit with the ace low (§3.1)",
                names(cards)
            ));
        }
        let four = cards.len() == 4 && SetShape::of(cards, |_| false).is_some();
        if meld.face_down && !four {
            return invalid(
                "only a concealed four of a kind may be placed face down (§3.1, TI-f)".into(),
            );
        }
        // §3.2: the top discard just taken must be in this meld, exposed.
        if self
            .must_meld
            .is_some_and(|(card, _)| !cards.contains(&card) || meld.face_down)
        {
            return self.owed_meld(index, action);
        }
        self.must_meld = None;
        self.opened[seat.pos()] = true;
        let how = if meld.face_down {
            "face down"
        } else {
            "exposed"
        };
        self.adj.events.push(Event::new(
            "melded",
            index,
            seat,
            cards.clone(),
            format!("{seat} melds {} ({how})", names(cards)),
        ));
        self.after_shedding(index, seat);
        Ok(())
    }

    /// A seat in the middle of his turn: he has drawn (or deals and has no draw).
    fn expect_play(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        self.turns
            .expect(index, action, Phase::Play, "a draw first")?;
        self.fresh = false;
        Ok(())
    }

    fn lay_off(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        lay: &LayOff,
    ) -> Result<(), RecordError> {
        let seat = action.seat;
        self.expect_play(index, action)?;
        self.owed_meld(index, action)?;
        let invalid =
            |detail: String| Err(RecordError::on("invalid_lay_off", index, action, detail));
        let Some(meld) = self.turns.melds.get(lay.target_meld) else {
            return invalid(format!(
                "there is no meld {} on the table: {} are laid (TI-g)",
                lay.target_meld,
                self.turns.melds.len()
            ));
        };
        if meld.face_down {
            return invalid(format!(
                "meld {} is a four of a kind laid face down: nothing is laid off onto it (TI-f)",
                lay.target_meld
            ));
        }
        let mut extended = meld.cards.clone();
        extended.push(lay.card);
        let owner = meld.owner;
        // Possession first (README C12), then the fit.
        self.turns
            .lay_off((index, seat, "lay_off/card"), lay.card, lay.target_meld)?;
        if !is_meld(&extended) {
            return invalid(format!(
                "{} does not extend meld {} ({})",
                lay.card,
                lay.target_meld,
                names(&extended[..extended.len() - 1])
            ));
        }
        if owner == seat {
            self.laid_own[seat.pos()] = true;
        } else {
            self.laid_on_by_others[owner.pos()] = true;
        }
        self.laid_any[seat.pos()] = true;
        self.adj.events.push(Event::new(
            "laid_off",
            index,
            seat,
            vec![lay.card],
            format!(
                "{seat} lays {} off onto meld {} ({owner}'s)",
                lay.card, lay.target_meld
            ),
        ));
        self.after_shedding(index, seat);
        Ok(())
    }

    /// §3.2, TI-f: after taking the top discard, the next action is its meld.
    fn owed_meld(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        match self.must_meld {
            Some((card, at)) => Err(RecordError::on(
                "illegal_discard_draw",
                index,
                action,
                format!(
                    "{} took {card} from the discard pile at action {at}: his next action must be a new exposed meld containing it (§3.2, TI-f)",
                    action.seat
                ),
            )),
            None => Ok(()),
        }
    }

    /// A hand emptied by a meld, a lay-off or the last discard is a tongit at once (§3.3); `true`
    /// when it was.
    fn after_shedding(&mut self, index: usize, seat: Seat) -> bool {
        let empty = self.turns.hand(seat).is_empty();
        if empty {
            self.emptied = Some((seat, index));
            self.end(Ended::Tongit, Some(seat));
        }
        empty
    }

    fn discard(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        card: Card,
    ) -> Result<(), RecordError> {
        let seat = action.seat;
        self.expect_play(index, action)?;
        self.owed_meld(index, action)?;
        self.turns.discard((index, seat, "discard"), card, 0)?;
        self.adj.events.push(Event::new(
            "discarded",
            index,
            seat,
            vec![card],
            format!("{seat} discards {card}"),
        ));
        // TI-d: condition (c) counts from the end of his turn.
        self.laid_on_by_others[seat.pos()] = false;
        if !self.after_shedding(index, seat) {
            if self.last_drawer == Some(seat) {
                self.stock_exhausted(index, seat);
            } else {
                self.turns.next_turn();
                self.fresh = true;
            }
        }
        Ok(())
    }

    /// §3.3: the drawer of the last stock card has ended his turn; the opened players compare
    /// deadwood, the drawer first, then clockwise (TI-4: nobody opened, no winner, unless every
    /// player compares).
    fn stock_exhausted(&mut self, index: usize, drawer: Seat) {
        let table = self.turns.table;
        let order: Vec<Seat> = [drawer, table.next(drawer), table.next(table.next(drawer))]
            .into_iter()
            .filter(|s| {
                self.opened[s.pos()]
                    || (self.options.all_compare && !self.opened.iter().any(|&o| o))
            })
            .collect();
        let winner = (!order.is_empty()).then(|| self.lowest(&order));
        let shown: Vec<String> = order
            .iter()
            .map(|s| format!("{s} {}", self.deadwood[s]))
            .collect();
        let detail = match winner {
            Some(w) => format!("the stock is exhausted; deadwood {}: {w} wins (§3.3)", shown.join(", ")),
            None => "the stock is exhausted and nobody has opened: no winner, the antes stay in the pot (TI-4)".into(),
        };
        self.adj.events.push(Event::new(
            "stock_exhausted",
            index,
            drawer,
            Vec::new(),
            detail,
        ));
        self.end(Ended::StockExhausted, winner);
    }

    fn tongit(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        if self.emptied == Some((seat, index.wrapping_sub(1))) {
            // TI-g: the derived tongit, recorded right after the action that emptied the hand.
            self.emptied = None;
            self.adj.events.push(Event::new(
                "tongit",
                index,
                seat,
                Vec::new(),
                format!("{seat} calls tongit"),
            ));
            return Ok(());
        }
        if self.turns.phase() == Phase::Over {
            return Err(RecordError::after_end(index, action, "the hand is over"));
        }
        if seat != self.turns.to_act() {
            return Err(RecordError::on(
                "out_of_turn",
                index,
                action,
                format!("it is {}'s turn", self.turns.to_act()),
            ));
        }
        Err(RecordError::on(
            "invalid_tongit",
            index,
            action,
            format!(
                "{seat} still holds {} cards: a tongit empties the hand (TI-f)",
                self.turns.hand(seat).len()
            ),
        ))
    }

    /// §4: the antes, what each loser pays the winner, the pot, the streaks and the next dealer;
    /// or, after an illegal call or challenge, the offender's penalty (TI-b).
    fn score(&mut self) {
        let table = self.turns.table;
        let adj = &mut self.adj;
        let side = |s: Seat| table.side(s);
        for s in table.seats() {
            adj.score(side(s), -ANTE, ScoreSource::Tricks, "ante", None);
        }
        let pot = self.carried.pot + ANTE as u32 * 3;
        let mut carried = Carried {
            pot,
            last_winner: None,
            streak: 0,
        };
        match self.winner {
            None => {
                // TI-b, TI-4: no winner; the pot carries over, every streak is broken.
                // The hand ends at its one irregularity (§5 DEFAULT): the offender pays each other.
                if let (true, Some(offence)) = (self.options.penalties, adj.irregularities.first())
                {
                    let offender = offence.seat;
                    for s in table.seats().filter(|&s| s != offender) {
                        adj.penalize(0, side(s), PENALTY);
                    }
                    adj.penalize(0, side(offender), -2 * PENALTY);
                }
                adj.match_after.next_dealer = Some(self.dealer);
            }
            Some(w) => {
                let won = match self.ended {
                    Some(Ended::Tongit) => ("tongit", 3),
                    Some(Ended::ChallengedDraw) => ("challenged_draw", 3),
                    _ => ("win", 1),
                };
                // TI-c: the fours in his hand and those he laid face down; the aces in his hand
                // and those he put in his own melds.
                let hand = self.turns.hand(w);
                let of_rank = |c: Card| hand.iter().filter(|d| d.rank() == c.rank()).count();
                let fours_in_hand = hand.iter().filter(|&c| of_rank(c) == 4).count() / 4;
                let fours = fours_in_hand + self.turns.melds_of(w).filter(|m| m.face_down).count();
                let aces = hand.iter().filter(|c| c.rank() == Some(Rank::Ace)).count()
                    + self
                        .turns
                        .melds_of(w)
                        .flat_map(|m| m.laid_by(w))
                        .filter(|c| c.rank() == Some(Rank::Ace))
                        .count();
                for loser in table.seats().filter(|&s| s != w) {
                    let folded = self.ended == Some(Ended::ChallengedDraw)
                        && !self.deadwood.contains_key(&loser);
                    let base = if folded {
                        self.options.folder_pays
                    } else {
                        won.1
                    };
                    let mut pay = |points: i32, code: &'static str| {
                        adj.score(side(w), points, ScoreSource::Tricks, code, None);
                        adj.score(side(loser), -points, ScoreSource::Tricks, code, None);
                    };
                    pay(base, won.0);
                    pay(3 * fours as i32, "concealed_four");
                    pay(i32::from(!self.opened[loser.pos()]), "never_opened");
                    pay(aces as i32, "aces");
                }
                // §4, TI-5: the pot to a second win in a row; the streak then restarts.
                let streak = match self.carried.last_winner {
                    Some(last) if last == w => self.carried.streak + 1,
                    _ => 1,
                };
                carried.last_winner = Some(w);
                if streak >= 2 {
                    adj.score(side(w), pot as i32, ScoreSource::Bonus, "pot", None);
                    carried.pot = 0;
                } else {
                    carried.streak = streak;
                }
                adj.hand_winner = Some(side(w));
                adj.match_after.next_dealer = Some(w);
            }
        }
        adj.settle();
        let m = &mut adj.match_after;
        m.details = details::Details::of(carried);
        // TI-e, TI-h: after the agreed hands, the highest balance wins (a tie: no single winner).
        let hands = self.options.match_hands;
        if hands > 0 && m.hands_played >= hands {
            m.highest_wins();
        }
    }

    fn set_details(&mut self) {
        let pot = details::read::<Carried>(&self.adj.match_after.details, "/match_after")
            .map(|c| c.pot)
            .unwrap_or(self.carried.pot);
        self.adj.details = details::Details::of(Details {
            ended: self.ended,
            deadwood: self.deadwood.clone(),
            opened: self.opened_seats(),
            melds: self.turns.melds.clone(),
            pot,
        });
    }
}

impl HandState<Verb> for Hand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        // README C6, TI-g: after an illegal call or challenge the later actions are ignored.
        if let Some(ignored) = self.first.ignores(index, "tong-its.md §5, TI-b") {
            self.adj.ignored_actions.push(ignored);
            return Ok(());
        }
        match &action.kind {
            Verb::Correct(_) => Err(RecordError::on(
                "invalid_correct",
                index,
                action,
                "Tong-Its has nothing to correct (TI-f, README C11)".into(),
            )),
            Verb::Tongit(_) => self.tongit(index, action),
            _ if self.turns.phase() == Phase::Over => {
                Err(RecordError::after_end(index, action, "the hand is over"))
            }
            Verb::Fold(_) => self.answer(index, action, false),
            Verb::Challenge(_) => self.answer(index, action, true),
            _ if self.call.is_some() => {
                let due = self.call.as_ref().map(|c| c.due).expect("a call");
                Err(RecordError::out_of_phase(
                    index,
                    action,
                    due,
                    &format!("{due} is to fold or challenge the draw call"),
                ))
            }
            Verb::Draw(draw) => self.draw(index, action, draw),
            Verb::CallDraw(_) => self.call_draw(index, action),
            Verb::Meld(meld) => self.meld(index, action, meld),
            Verb::LayOff(lay) => self.lay_off(index, action, lay),
            Verb::Discard(card) => self.discard(index, action, *card),
        }
    }

    fn view(&self) -> TableView {
        let mut view = self.turns.view(&self.adj.match_after);
        if let Some(call) = &self.call {
            view.phase = "draw_call";
            view.to_act = vec![call.due];
            let hands = std::mem::take(&mut view.hands);
            view.set_hands(hands);
        }
        view.tally = self.adj.tally.clone();
        view.irregularities = self.adj.irregularities.clone();
        view.details = details::Details::of(ViewDetails {
            stock: self.turns.stocks[0].len(),
            discard_pile: self.turns.piles[0].cards().to_vec(),
            melds: self.turns.melds.clone(),
            opened: self.opened_seats(),
            draw_call: self.call.as_ref().map(|c| c.caller),
            must_meld: self.must_meld.map(|m| m.0),
            pot: self.carried.pot + ANTE as u32 * 3,
        });
        view
    }

    /// A draw call is answered by the seat it names.
    fn locus(&self) -> Locus {
        match &self.call {
            Some(_) => Locus::of_turns(false),
            None => self.turns.locus(),
        }
    }

    /// The draws, the call, the answers, every meld the hand can make (exposed, and face down
    /// for a four), every lay-off of a card onto a meld it may fit, every discard; `apply` judges.
    /// A draw naming its card is the draw offered, `{"from": ...}`: the card is data the record
    /// may state, the stock's next card or the top discard (`wrong_draw` otherwise).
    fn offered_as(&self, action: Action<Verb>) -> Action<Verb> {
        match action.kind {
            Verb::Draw(Draw { from, .. }) => Action {
                seat: action.seat,
                kind: Verb::Draw(Draw { from, card: None }),
            },
            kind => Action { kind, ..action },
        }
    }

    fn candidates(&self) -> Vec<Action<Verb>> {
        let mut out = Vec::new();
        let act = |seat, kind| Action { seat, kind };
        if self.turns.phase() == Phase::Over {
            // TI-g: the derived tongit may follow the action that emptied the hand.
            if let Some((seat, _)) = self.emptied {
                out.push(act(seat, Verb::Tongit(Yes)));
            }
            return out;
        }
        if let Some(call) = &self.call {
            out.push(act(call.due, Verb::Fold(Yes)));
            out.push(act(call.due, Verb::Challenge(Yes)));
            return out;
        }
        let seat = self.turns.to_act();
        if self.fresh {
            out.push(act(seat, Verb::CallDraw(Yes)));
        }
        if self.turns.phase() == Phase::Draw {
            for from in [Source::Stock, Source::Discard] {
                out.push(act(seat, Verb::Draw(Draw { from, card: None })));
            }
            return out;
        }
        let hand = self.turns.hand(seat);
        for cards in rummy::sets_and_runs(hand, Ace::Low) {
            if cards.len() == 4 && SetShape::of(&cards, |_| false).is_some() {
                out.push(act(
                    seat,
                    Verb::Meld(MeldAction {
                        cards: cards.clone(),
                        face_down: true,
                    }),
                ));
            }
            out.push(act(
                seat,
                Verb::Meld(MeldAction {
                    cards,
                    face_down: false,
                }),
            ));
        }
        if self.must_meld.is_some() {
            return out;
        }
        for (target_meld, meld) in self.turns.melds.iter().enumerate() {
            for card in hand.iter() {
                let mut extended = meld.cards.clone();
                extended.push(card);
                if !meld.face_down && is_meld(&extended) {
                    out.push(act(seat, Verb::LayOff(LayOff { card, target_meld })));
                }
            }
        }
        out.extend(hand.iter().map(|c| act(seat, Verb::Discard(c))));
        out
    }

    fn faulted(&self, index: usize) -> bool {
        self.adj.faulted(index)
    }

    fn finish(mut self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        let ending = match (self.ended, &self.call) {
            (Some(_), _) => Ending::Over,
            (None, Some(call)) => Ending::Open {
                due: Some(call.due),
                detail: format!(
                    "the record stops before {} answers {}'s draw call",
                    call.due, call.caller
                ),
            },
            (None, None) => Ending::Open {
                due: Some(self.turns.to_act()),
                detail: format!(
                    "the record stops before the hand is over; {} is to act",
                    self.turns.to_act()
                ),
            },
        };
        if !self.adj.unscored(error, ending) {
            self.score();
        }
        self.set_details();
        self.adj
    }
}
