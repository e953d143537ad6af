//! Spinado (`docs/rules/spinado.md`): 3 to 5 players each for himself, played for chips. The
//! 47-card pack (no 2s, no 8♦) is dealt into n + 1 hands; the dead hand is never used. Cards are
//! played upward in suit (A low … K); a sequence stops when its next card is in the dead hand,
//! has been played or does not exist, and the last player starts anew. The A♦ (the spinado) may be
//! added to any of its holder's plays and stops play. Three pots: Matrimony (K♦ and Q♦ played by
//! one player), Intrigue (Q♦ and J♦), Game (the first player out). A stops game: its unit is a
//! play, not a trick.

use crate::cards::{Card, CardSet, Rank, Suit, packs};
use crate::details;
use crate::engine::{
    Adjudication, Effect, Ending, Event, FieldError, GameInfo, HandState, Irregularity, Locus,
    MatchState, OptionKind, OptionSpec, Options, PerSide, RecordError, Rotation, Rules,
    ScoreSource, Seat, Side, Table, TableView, deal,
};
use crate::record::{Action, HandRecord, Placeholder};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;

pub struct Spinado;

crate::verbs! {
    /// What a record of Spinado can say.
    pub enum Verb in "Spinado" {
        Play(Play) = "play": "A card played: a start or the continuation of the sequence, with the spinado (A♦) put down right after it when `spinado` is true (SP-f).",
        Antes(Antes) = "antes": "The seats that put their antes in the three pots, as the table recorded them (optional, first action only): checked against the rule (§3), `ante_mismatch` when they differ.",
        Correct(Card) = "correct": "Every game's record has it; Spinado has nothing to correct, so it is always `invalid_correct` (SP-g).",
    }
}

/// One play (§2, SP-f): the card, and whether the spinado goes down right after it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SpinadoPlay)]
pub struct Play {
    pub card: Card,
    /// The A♦ is added to this play (SP-2); the A♦ played on its own is `{"card": "AD"}`.
    #[serde(default)]
    pub spinado: bool,
}

impl Placeholder for Play {
    const PLACEHOLDER: &'static str = "{\"card\": \"<card>\", \"spinado\": <true|false>}";
}

/// The seats that anted, as recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(transparent)]
pub struct Antes(pub Vec<Seat>);

impl Placeholder for Antes {
    const PLACEHOLDER: &'static str = "<seats as a JSON array: [\"P1\", \"P2\"]>";
}

/// The three pots (§1), in chips.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SpinadoPots)]
pub struct Pots {
    pub matrimony: u32,
    pub intrigue: u32,
    pub game: u32,
}

/// What Spinado carries from hand to hand besides the chip balances (§4).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SpinadoCarried)]
pub struct Carried {
    /// The chips in the three pots between hands: Matrimony and Intrigue carry until taken; the
    /// Game pot is taken by every hand's winner, so it is 0 between hands.
    #[serde(default)]
    pub pots: Pots,
    /// The previous hand's winner, who does not ante (§3); `null` before the first hand.
    #[serde(default)]
    pub previous_winner: Option<Seat>,
}

/// A pot taken during the hand.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = SpinadoPotTaken)]
pub struct PotTaken {
    /// `matrimony`, `intrigue` or `game`.
    pub pot: &'static str,
    pub seat: Seat,
    pub chips: u32,
    /// The play that took it (the play of its second card; for the Game pot, the play that went out).
    pub action_index: usize,
}

/// What Spinado adds to the adjudication.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = SpinadoDetails)]
pub struct Details {
    /// The dead hand as dealt (never used, §1).
    pub dead_hand: Vec<Card>,
    /// The seats that anted 1 chip to each pot (§3: all but the previous hand's winner).
    pub antes: Vec<Seat>,
    /// The pots after the antes, before any play.
    pub pots_at_start: Pots,
    /// The pots as they stand at the end of the replay (what the next hand carries, when scored).
    pub pots: Pots,
    /// The pots taken, in the order they were taken.
    pub pots_taken: Vec<PotTaken>,
    /// The seat that went out (no cards left); `null` when no one did.
    pub went_out: Option<Seat>,
    /// The seat holding the spinado at the end of the replay; `null` once it is played.
    pub spinado_held_by: Option<Seat>,
    /// The cards each seat holds at the end of the replay.
    #[schema(value_type = BTreeMap<String, u32>)]
    pub cards_left: BTreeMap<Seat, u32>,
}

/// What the table sees beside the hands: the pots and the sequence under way.
#[derive(Debug, Serialize)]
struct ViewDetails {
    pots: Pots,
    /// The card that continues the sequence and its holder; `null` when play has stopped and the
    /// last player starts anew.
    due: Option<Due>,
    /// The player who played last (who starts anew after a stop).
    last: Seat,
    dead_hand: Vec<Card>,
}

#[derive(Clone, Copy, Debug, Serialize)]
struct Due {
    card: Card,
    holder: Seat,
}

const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "players",
        kind: OptionKind::Choice {
            values: &["3", "4", "5"],
            default: "4",
        },
        description: "Number of players, each for himself (seats P1..Pn; at four, N E S W as at \
                      every four-seat table). 3: 11 cards each, dead hand 14; 4: 9 each, dead \
                      hand 11; 5: 7 each, dead hand 12.",
        rule: "spinado.md §1",
    },
    OptionSpec {
        name: "hands",
        kind: OptionKind::Count {
            min: 0,
            max: 10_000,
            default: 0,
        },
        description: "The agreed number of hands: when they are played the game is over and the \
                      most chips win (ties share the win). 0: not agreed, the game does not end \
                      by itself.",
        rule: "spinado.md §4, SP-d, SP-h",
    },
];

static INFO: GameInfo = GameInfo {
    id: "spinado",
    name: "Spinado",
    tables: crate::engine::Tables(&[Table::solo(4), Table::solo(3), Table::solo(5)]),
    deck: "47-card pack (no 2s, no 8♦); A low; dealt into n + 1 hands, the last the dead hand",
    // No target: chips are settled hand by hand over the agreed number of hands (`hands`).
    game_target: 0,
    options: OPTIONS,
    rules: "docs/rules/spinado.md",
    irregularities: &["held_back"],
    record_errors: &[
        "out_of_turn",
        "card_not_held",
        "card_played_twice",
        "unexpected_action",
        "invalid_correct",
        "action_after_end",
        "incomplete_hand",
        "ante_mismatch",
    ],
    events: &[
        "antes",
        "played",
        "spinado",
        "stopped",
        "pot_taken",
        "went_out",
    ],
    score_codes: &["ante", "matrimony", "intrigue", "game", "spinado_penalty"],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    titles: crate::engine::Titles(&[
        (
            "held_back",
            "Card held back: the next card of the sequence not played",
        ),
        (
            "ante_mismatch",
            "Recorded antes that differ from the rule's",
        ),
        ("antes", "Antes put in the pots"),
        ("played", "Played"),
        ("spinado", "Spinado (A♦) played"),
        ("stopped", "Sequence stopped: the last player starts anew"),
        ("pot_taken", "Pot taken"),
        ("went_out", "Out of cards: the hand is over"),
        ("ante", "Antes to the three pots"),
        ("matrimony", "Matrimony pot (K♦ and Q♦)"),
        ("intrigue", "Intrigue pot (Q♦ and J♦)"),
        ("game", "Game pot: first out of cards"),
        (
            "spinado_penalty",
            "Spinado still held: 2 chips per card to the winner",
        ),
    ]),
};

/// The spinado (§1).
const SPINADO: Card = Card::new(Rank::Ace, Suit::Diamonds);
/// §3: chips each anting player puts in each pot.
const ANTE: u32 = 1;
/// §3: chips per card the spinado's holder pays the winner.
const SPINADO_PER_CARD: i32 = 2;
/// §5 DEFAULT: chips the offender of `held_back` pays each other player.
const HELD_BACK: i32 = 2;

/// §1: the cards each player is dealt and the dead hand's size, by players.
fn dealt(players: usize) -> (usize, u32) {
    match players {
        3 => (11, 14),
        5 => (7, 12),
        _ => (9, 11),
    }
}

/// §3, SP-4: the card that continues a sequence after `card`, if it exists (none after an ace,
/// a king or the 7♦).
fn next_up(card: Card) -> Option<Card> {
    use Rank::*;
    let next = match card.rank_unchecked() {
        Three => Four,
        Four => Five,
        Five => Six,
        Six => Seven,
        Seven => Eight,
        Eight => Nine,
        Nine => Ten,
        Ten => Jack,
        Jack => Queen,
        Queen => King,
        _ => return None,
    };
    Some(Card::new(next, card.suit_unchecked())).filter(|&c| packs::spinado47().cards.contains(c))
}

/// The pots two cards played by one player take (§3, SP-3, SP-a): Matrimony K♦ Q♦, Intrigue Q♦ J♦.
const POT_CARDS: [(&str, Rank, Rank); 2] = [
    ("matrimony", Rank::King, Rank::Queen),
    ("intrigue", Rank::Queen, Rank::Jack),
];

impl Pots {
    fn get_mut(&mut self, pot: &str) -> &mut u32 {
        match pot {
            "matrimony" => &mut self.matrimony,
            "intrigue" => &mut self.intrigue,
            _ => &mut self.game,
        }
    }

    fn total(self) -> i64 {
        i64::from(self.matrimony) + i64::from(self.intrigue) + i64::from(self.game)
    }
}

impl Rules for Spinado {
    type Verb = Verb;
    type Details = Details;
    type Carried = Carried;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn table(&self, options: &Options) -> Table {
        match options.choice("players") {
            "3" => Table::solo(3),
            "5" => Table::solo(5),
            _ => Table::solo(4),
        }
    }

    /// SP-h: the next hand is dealt by the dealer's left.
    fn rotation(&self, _: &Options) -> Rotation {
        Rotation::Left
    }

    fn setup(&self, options: &Options) -> deal::Setup {
        const DEAD: [deal::Holds; 3] = [
            dead_hand(14), // 3 players
            dead_hand(11),
            dead_hand(12),
        ];
        let players = self.table(options).size;
        let (each, _) = dealt(players);
        deal::Setup {
            pack: packs::spinado47(),
            hand: deal::HandSize::Each(each),
            counted_by: None,
            parts: std::slice::from_ref(&DEAD[players - 3]),
        }
    }

    fn start(
        &self,
        record: &HandRecord<Verb>,
        options: &Options,
        table: Table,
        before: &MatchState,
    ) -> Result<Box<dyn HandState<Verb>>, Vec<FieldError>> {
        let pack = packs::spinado47();
        let mut cards = deal::check_cards(record, table, &pack)?;
        deal::check_undealt(&record.stock, "stock", &pack, &mut cards)?;
        deal::check_whole_pack(&cards, &pack)?;
        let carried: Carried = details::read(&before.details, "/match_state")?;
        let hands_agreed = options.count("hands");
        check_match(table, before, &carried, hands_agreed)?;
        let dealer = table.resolve(record.dealer).expect("checked with the deal");
        let hands: Vec<CardSet> = table.seats().map(|s| cards.hands[s.pos()]).collect();
        // §3: every player antes 1 to each pot, except the previous hand's winner (named as the
        // table names him: P1 is N at four).
        let previous = carried.previous_winner.and_then(|w| table.resolve(w));
        let antes: Vec<Seat> = table.seats().filter(|&s| Some(s) != previous).collect();
        let mut pots = carried.pots;
        let put = ANTE * antes.len() as u32;
        pots.matrimony += put;
        pots.intrigue += put;
        pots.game += put;
        let mut adj = Adjudication::new(INFO.id, dealer, before, 0);
        adj.tally = PerSide::over(table.sides());
        adj.events.push(Event::new(
            "antes",
            None,
            None,
            Vec::new(),
            format!(
                "{} ante {ANTE} chip to each pot{}: Matrimony {}, Intrigue {}, Game {} (§3)",
                names(&antes),
                previous.map_or(String::new(), |w| format!(
                    " ({w}, the previous hand's winner, does not)"
                )),
                pots.matrimony,
                pots.intrigue,
                pots.game
            ),
        ));
        Ok(Box::new(Hand {
            table,
            dealt: hands.clone(),
            hands,
            dead: record.stock.clone(),
            played_by: BTreeMap::new(),
            last: table.left(dealer),
            due: None,
            played: false,
            out: None,
            antes,
            pots_at_start: pots,
            pots,
            pots_taken: Vec::new(),
            hands_agreed,
            adj,
        }))
    }
}

/// The dead hand, in the record's `stock` (§1, §2).
const fn dead_hand(cards: u32) -> deal::Holds {
    deal::Holds {
        part: deal::Part::Stock,
        what: "the dead hand, never used",
        count: deal::Count::Between(cards, cards),
    }
}

/// A match state no hand can produce is refused (README C14): chips that do not add up (every
/// chip is a player's or in a pot, and balances start at 0), a Game pot left between hands (every
/// hand's winner takes it), a previous winner before the first hand or none after it, or a game
/// whose agreed hands are all played (SP-h).
fn check_match(
    table: Table,
    before: &MatchState,
    carried: &Carried,
    hands_agreed: u32,
) -> Result<(), Vec<FieldError>> {
    let mut errors = Vec::new();
    let chips: i64 = before
        .scores
        .sides()
        .map(|s| i64::from(before.scores[s]))
        .sum();
    if chips + carried.pots.total() != 0 {
        errors.push(FieldError::new(
            "/match_state/scores".into(),
            format!(
                "the chip balances add up to {chips} and the pots hold {}: every chip a player is down is in a pot or with another player, so they add up to 0 (§3, §4)",
                carried.pots.total()
            ),
        ));
    }
    if carried.pots.game != 0 {
        errors.push(FieldError::new(
            "/match_state/pots/game".into(),
            "the Game pot is taken by every hand's winner, so it is 0 between hands (§3)".into(),
        ));
    }
    match carried.previous_winner {
        Some(_) if before.hands_played == 0 => errors.push(FieldError::new(
            "/match_state/previous_winner".into(),
            "no hand has been played, so there is no previous winner (§3)".into(),
        )),
        Some(w) if table.resolve(w).is_none() => errors.push(FieldError::new(
            "/match_state/previous_winner".into(),
            format!("no seat {w} at this table: expected {}", table.names()),
        )),
        None if before.hands_played > 0 => errors.push(FieldError::new(
            "/match_state/previous_winner".into(),
            "every hand has a winner, who does not ante in the next (§3): name him".into(),
        )),
        _ => {}
    }
    if errors.is_empty() && hands_agreed > 0 && before.hands_played >= hands_agreed {
        errors.push(FieldError::new(
            "/match_state/hands_played".into(),
            format!(
                "{} of the {hands_agreed} agreed hands are played: the game is over, start a new one (SP-h)",
                before.hands_played
            ),
        ));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

#[derive(Clone)]
struct Hand {
    table: Table,
    /// Every seat's dealt cards, by table position.
    dealt: Vec<CardSet>,
    /// Every seat's cards now.
    hands: Vec<CardSet>,
    dead: Vec<Card>,
    /// Who played each of J♦ Q♦ K♦ (the pots' cards).
    played_by: BTreeMap<Rank, Seat>,
    /// The player who played last: he starts anew after a stop (at first, the dealer's left).
    last: Seat,
    /// The card that continues the sequence and its holder; `None` once play has stopped.
    due: Option<Due>,
    /// Whether a card has been played (the antes are stated before the first).
    played: bool,
    out: Option<Seat>,
    antes: Vec<Seat>,
    pots_at_start: Pots,
    pots: Pots,
    pots_taken: Vec<PotTaken>,
    hands_agreed: u32,
    adj: Adjudication,
}

impl Hand {
    /// SP-e: the seats entitled to play now: the continuation's holder, and the last player (who
    /// may start anew, holding the continuation back or having it held back).
    fn entitled(&self) -> Vec<Seat> {
        match self.due {
            Some(due) if due.holder != self.last => vec![due.holder, self.last],
            _ => vec![self.last],
        }
    }

    fn holder(&self, card: Card) -> Option<Seat> {
        self.table
            .seats()
            .find(|s| self.hands[s.pos()].contains(card))
    }

    fn antes(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        stated: &[Seat],
    ) -> Result<(), RecordError> {
        let mut given: Vec<Seat> = Vec::with_capacity(stated.len());
        for &s in stated {
            match self.table.resolve(s) {
                Some(s) if !given.contains(&s) => given.push(s),
                _ => {
                    return Err(RecordError::on(
                        "ante_mismatch",
                        index,
                        action,
                        format!(
                            "{s} is not a seat that antes once at this table: the antes are {} (§3)",
                            names(&self.antes)
                        ),
                    ));
                }
            }
        }
        given.sort_by_key(|s| s.pos());
        if given != self.antes {
            return Err(RecordError::on(
                "ante_mismatch",
                index,
                action,
                format!(
                    "the record says {} ante, the rule says {}: every player antes except the previous hand's winner (§3)",
                    names(&given),
                    names(&self.antes)
                ),
            ));
        }
        Ok(())
    }

    fn play(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        play: &Play,
    ) -> Result<(), RecordError> {
        let seat = action.seat;
        let card = play.card;
        let fault =
            |field: &str, code, detail| Err(RecordError::at(code, index, seat, field, detail));
        if !self.dealt[seat.pos()].contains(card) {
            return fault(
                "play/card",
                "card_not_held",
                format!("{seat} was not dealt {card}"),
            );
        }
        if !self.hands[seat.pos()].contains(card) {
            return fault(
                "play/card",
                "card_played_twice",
                format!("{seat} already played {card}"),
            );
        }
        if play.spinado {
            if card == SPINADO {
                return fault(
                    "play/spinado",
                    "unexpected_action",
                    "the spinado played on its own is {\"card\": \"AD\"}, without the flag (SP-f)"
                        .into(),
                );
            }
            if !self.dealt[seat.pos()].contains(SPINADO) {
                return fault(
                    "play/spinado",
                    "card_not_held",
                    format!("{seat} was not dealt the spinado (A♦) (SP-g)"),
                );
            }
            if !self.hands[seat.pos()].contains(SPINADO) {
                return fault(
                    "play/spinado",
                    "card_played_twice",
                    format!("{seat} already played the spinado (A♦)"),
                );
            }
        }
        // SP-1, SP-c, SP-e: the continuation's holder plays it; the last player may start anew,
        // which holds the continuation back; nothing else may be played.
        let starts = match self.due {
            Some(due) if seat == due.holder && card == due.card => false,
            Some(due) if seat == self.last => {
                let (holder, held) = (due.holder, due.card);
                let who = if holder == seat {
                    format!(
                        "{seat} holds {held}, the next card of the sequence, and started anew with {card} (SP-c)"
                    )
                } else {
                    format!(
                        "{holder} holds {held}, the next card of the sequence, and did not play it; {seat}, who played last, started anew with {card} (SP-e)"
                    )
                };
                let others = self.table.size - 1;
                self.adj.irregularities.push(Irregularity {
                    code: "held_back",
                    action_index: Some(index),
                    trick: None,
                    seat: holder,
                    card: Some(held),
                    rule: "spinado.md §3, §5, SP-c, SP-e",
                    explanation: who,
                    consequence: format!(
                        "{holder} pays {HELD_BACK} chips to each other player, {} in all (§5 DEFAULT); the start stands and play goes on",
                        HELD_BACK * others as i32
                    ),
                    effect: Effect::default(),
                });
                true
            }
            Some(due) => {
                return Err(RecordError::on(
                    "out_of_turn",
                    index,
                    action,
                    format!(
                        "{seat} holds {}, the next card of the sequence: he may play only that card; {} may start anew (SP-e)",
                        due.card, self.last
                    ),
                ));
            }
            None => true,
        };
        self.hands[seat.pos()].remove(card);
        self.played = true;
        self.adj.events.push(Event::new(
            "played",
            index,
            seat,
            vec![card],
            format!(
                "{seat} {} {card}",
                if starts { "starts with" } else { "plays" }
            ),
        ));
        self.take_pots(index, seat, card);
        if play.spinado {
            self.hands[seat.pos()].remove(SPINADO);
            self.adj.events.push(Event::new(
                "spinado",
                index,
                seat,
                vec![SPINADO],
                format!("{seat} adds the spinado (A♦): play stops and {seat} starts anew (SP-2)"),
            ));
        }
        self.last = seat;
        let next = if play.spinado {
            None
        } else {
            next_up(card).and_then(|c| self.holder(c).map(|holder| Due { card: c, holder }))
        };
        self.due = next;
        if self.hands[seat.pos()].is_empty() {
            // §3, SP-f: the first player out of cards wins the hand and the Game pot.
            self.out = Some(seat);
            let chips = std::mem::take(&mut self.pots.game);
            self.pots_taken.push(PotTaken {
                pot: "game",
                seat,
                chips,
                action_index: index,
            });
            self.adj.events.push(Event::new(
                "went_out",
                index,
                seat,
                Vec::new(),
                format!(
                    "{seat} has no card left: he wins the hand and the Game pot, {chips} chips (§3)"
                ),
            ));
        } else if next.is_none() && !play.spinado && card != SPINADO {
            let why = match next_up(card) {
                None => format!("{card} has no next card"),
                Some(c) if self.dead.contains(&c) => format!("{c} is in the dead hand"),
                Some(c) => format!("{c} has been played"),
            };
            self.adj.events.push(Event::new(
                "stopped",
                index,
                seat,
                Vec::new(),
                format!("play stops ({why}, §3, SP-b, SP-4): {seat} starts anew"),
            ));
        }
        Ok(())
    }

    /// §3, SP-a, SP-f: the play of a pot's second card by the player who played its first takes it.
    fn take_pots(&mut self, index: usize, seat: Seat, card: Card) {
        if card.suit_unchecked() != Suit::Diamonds {
            return;
        }
        let rank = card.rank_unchecked();
        self.played_by.insert(rank, seat);
        for (pot, a, b) in POT_CARDS {
            let other = match rank {
                r if r == a => b,
                r if r == b => a,
                _ => continue,
            };
            if self.played_by.get(&other) != Some(&seat) {
                continue;
            }
            let chips = std::mem::take(self.pots.get_mut(pot));
            self.pots_taken.push(PotTaken {
                pot,
                seat,
                chips,
                action_index: index,
            });
            self.adj.events.push(Event::new(
                "pot_taken",
                index,
                seat,
                vec![Card::new(a, Suit::Diamonds), Card::new(b, Suit::Diamonds)],
                format!(
                    "{seat} has played {}♦ and {}♦: he takes the {pot} pot, {chips} chips (§3)",
                    a.letter(),
                    b.letter()
                ),
            ));
        }
    }

    /// §3, §4, §5: the antes, the pots taken, the spinado penalty and the `held_back` penalties.
    fn score(&mut self) {
        let table = self.table;
        let out = self.out.expect("a decided hand has a seat out");
        for &s in &self.antes {
            self.adj.score(
                table.side(s),
                -3 * ANTE as i32,
                ScoreSource::Tricks,
                "ante",
                None,
            );
        }
        for t in &self.pots_taken {
            self.adj.score(
                table.side(t.seat),
                t.chips as i32,
                ScoreSource::Tricks,
                t.pot,
                Some(t.action_index),
            );
        }
        if let Some(holder) = self.holder(SPINADO) {
            let chips = SPINADO_PER_CARD * self.hands[holder.pos()].len() as i32;
            self.adj.score(
                table.side(out),
                chips,
                ScoreSource::Tricks,
                "spinado_penalty",
                None,
            );
            self.adj.score(
                table.side(holder),
                -chips,
                ScoreSource::Tricks,
                "spinado_penalty",
                None,
            );
        }
        for i in 0..self.adj.irregularities.len() {
            let offender = self.adj.irregularities[i].seat;
            for s in table.seats() {
                let chips = if s == offender {
                    -HELD_BACK * (table.size as i32 - 1)
                } else {
                    HELD_BACK
                };
                self.adj.penalize(i, table.side(s), chips);
            }
        }
        self.adj.settle();
        self.adj.hand_winner = Some(table.side(out));
        let m = &mut self.adj.match_after;
        m.next_dealer = Some(table.left(self.adj.dealer));
        m.details = details::Details::of(Carried {
            pots: self.pots,
            previous_winner: Some(out),
        });
        // SP-h: the agreed hands played, the most chips win; ties share the win.
        if self.hands_agreed > 0 && m.hands_played >= self.hands_agreed {
            let best = table.sides().map(|s| m.scores[s]).max();
            let top: Vec<Side> = table
                .sides()
                .filter(|&s| Some(m.scores[s]) == best)
                .collect();
            m.end_game(top);
        }
    }

    fn details(&self) -> Details {
        Details {
            dead_hand: self.dead.clone(),
            antes: self.antes.clone(),
            pots_at_start: self.pots_at_start,
            pots: self.pots,
            pots_taken: self.pots_taken.clone(),
            went_out: self.out,
            spinado_held_by: self.holder(SPINADO),
            cards_left: self
                .table
                .seats()
                .map(|s| (s, self.hands[s.pos()].len()))
                .collect(),
        }
    }
}

/// Seats as a director says them: "P1, P2 and P3".
fn names(seats: &[Seat]) -> String {
    match seats {
        [] => "nobody".into(),
        [one] => one.to_string(),
        [rest @ .., last] => format!(
            "{} and {last}",
            rest.iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

impl HandState<Verb> for Hand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        if let Some(out) = self.out {
            return Err(RecordError::after_end(
                index,
                action,
                &format!("{out} is out of cards and the hand is over (SP-g)"),
            ));
        }
        let entitled = self.entitled();
        match &action.kind {
            // SP-g: nothing in Spinado can be corrected.
            Verb::Correct(_) => Err(RecordError::on(
                "invalid_correct",
                index,
                action,
                "Spinado has no correction: every play stands (SP-g, README C11)".into(),
            )),
            // §2: the antes are stated before the first play, once.
            Verb::Antes(Antes(seats)) if index == 0 => self.antes(index, action, seats),
            _ if !entitled.contains(&action.seat) => Err(RecordError::on(
                "out_of_turn",
                index,
                action,
                match self.due {
                    Some(due) => format!(
                        "{} must play {}, or {} may start anew (SP-e)",
                        due.holder, due.card, self.last
                    ),
                    None => format!("play has stopped: {} starts anew (§3)", self.last),
                },
            )),
            Verb::Play(play) => self.play(index, action, play),
            Verb::Antes(_) => Err(RecordError::unexpected(
                index,
                action,
                "the antes are stated once, as the record's first action (§2)".into(),
            )),
        }
    }

    fn view(&self) -> TableView {
        let over = self.out.is_some();
        let mut view = TableView::turns(
            if over { "over" } else { "play" },
            if over { Vec::new() } else { self.entitled() },
            self.table
                .seats()
                .map(|s| (s, self.hands[s.pos()].iter().collect())),
            &self.adj.match_after,
        );
        view.tally = self.adj.tally.clone();
        view.irregularities = self.adj.irregularities.clone();
        view.details = details::Details::of(ViewDetails {
            pots: self.pots,
            due: self.due,
            last: self.last,
            dead_hand: self.dead.clone(),
        });
        view
    }

    /// A seat is entitled to play until a player is out (`entitled` always names the last player).
    fn locus(&self) -> Locus {
        Locus::of_turns(self.out.is_some())
    }

    /// Every card of each seat entitled to play, alone and (for the spinado's holder) with the
    /// spinado. The antes are the record's statement, not a decision: they are not offered.
    fn candidates(&self) -> Vec<Action<Verb>> {
        if self.out.is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for seat in self.entitled() {
            let hand = self.hands[seat.pos()];
            for card in hand.iter() {
                for spinado in [false, true] {
                    if spinado && (card == SPINADO || !hand.contains(SPINADO)) {
                        continue;
                    }
                    out.push(Action {
                        seat,
                        kind: Verb::Play(Play { card, spinado }),
                    });
                }
            }
        }
        out
    }

    fn faulted(&self, index: usize) -> bool {
        self.adj.faulted(index)
    }

    fn finish(mut self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        let ending = match self.out {
            Some(_) => Ending::Over,
            None => {
                let entitled = self.entitled();
                let detail = match self.due {
                    Some(due) => format!(
                        "the record stops before anyone is out of cards; {} is to play {}{}",
                        due.holder,
                        due.card,
                        if entitled.len() > 1 {
                            format!(", or {} to start anew", self.last)
                        } else {
                            String::new()
                        }
                    ),
                    None => format!(
                        "the record stops before anyone is out of cards; {} is to start anew",
                        self.last
                    ),
                };
                Ending::Open {
                    // README C14 (a): null where more than one seat may act.
                    due: (entitled.len() == 1).then(|| entitled[0]),
                    detail,
                }
            }
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

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn the_pack_is_47_cards() {
        let pack = packs::spinado47();
        assert_eq!(pack.len(), 47);
        assert!(!pack.cards.contains(card("8D")));
        assert!(!pack.cards.contains(card("2S")));
        assert!(pack.cards.contains(card("8S")));
    }

    #[test]
    fn the_deal_fills_the_pack() {
        for n in 3..=5 {
            let (each, dead) = dealt(n);
            assert_eq!(each * n + dead as usize, 47, "{n} players");
        }
    }

    #[test]
    fn sequences_stop_after_aces_kings_and_the_seven_of_diamonds() {
        assert_eq!(next_up(card("AS")), None);
        assert_eq!(next_up(card("KH")), None);
        assert_eq!(next_up(card("7D")), None);
        assert_eq!(next_up(card("7C")), Some(card("8C")));
        assert_eq!(next_up(card("3C")), Some(card("4C")));
        assert_eq!(next_up(card("QD")), Some(card("KD")));
        assert_eq!(next_up(card("9D")), Some(card("TD")));
    }

    /// A small deterministic generator for the random hands.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    fn chips_held(m: &MatchState) -> i64 {
        let balances: i64 = m.scores.sides().map(|s| i64::from(m.scores[s])).sum();
        let carried: Carried = details::read(&m.details, "").unwrap();
        balances + carried.pots.total()
    }

    /// The test: over random hands (every player count, matches of several hands so that
    /// pots carry and the previous winner is exempt, `held_back` starts thrown in), every hand's
    /// payments and the pots' change add up to zero, and so do the balances and the pots.
    #[test]
    fn every_hand_is_zero_sum_counting_the_pots() {
        use crate::engine::{Replay, Rules as _};
        use crate::record::Action as AnyAction;
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let (mut hands, mut held_back, mut pots) = (0, 0, 0);
        for players in ["3", "4", "5"] {
            let mut before: Option<MatchState> = None;
            for dealer_pos in 0..60 {
                let options: BTreeMap<String, serde_json::Value> =
                    [("players".to_string(), serde_json::json!(players))].into();
                let table = Spinado.table(&Options::resolve(OPTIONS, &options, "").unwrap());
                let mut pack: Vec<Card> = packs::spinado47().cards.iter().collect();
                for i in (1..pack.len()).rev() {
                    pack.swap(i, rng.below(i + 1));
                }
                let (each, _) = dealt(table.size);
                let seats: Vec<Seat> = table.seats().collect();
                let deal = seats
                    .iter()
                    .enumerate()
                    .map(|(i, &s)| (s, pack[i * each..(i + 1) * each].to_vec()))
                    .collect();
                let dealer = seats[dealer_pos % table.size];
                let record = HandRecord {
                    options,
                    dealer,
                    deal,
                    stock: pack[each * table.size..].to_vec(),
                    match_state: before.clone(),
                    ..serde_json::from_value(serde_json::json!({"dealer": "N", "deal": {}}))
                        .unwrap()
                };
                let mut replay = Replay::start(&Spinado, &record).unwrap();
                loop {
                    let view = replay.view();
                    if view.legal.is_empty() {
                        break;
                    }
                    // Now and then the last player starts anew while a continuation is due.
                    let action = match view.to_act.get(1) {
                        Some(&last) if rng.below(4) == 0 => {
                            let hand = &view.hands[&last];
                            AnyAction::new(
                                last,
                                "play",
                                serde_json::json!({"card": hand[rng.below(hand.len())]}),
                            )
                        }
                        _ => view.legal[rng.below(view.legal.len())].clone(),
                    };
                    replay.apply(action).unwrap();
                }
                let a = replay.finish(None);
                assert!(a.record_error.is_none(), "{:?}", a.record_error);
                let hand_score = a.hand_score.as_ref().unwrap();
                let paid: i64 = hand_score.sides().map(|s| i64::from(hand_score[s])).sum();
                let d = serde_json::to_value(&a.details).unwrap();
                let pots_after: Pots = serde_json::from_value(d["pots"].clone()).unwrap();
                let pots_before = before.as_ref().map_or(Pots::default(), |m| {
                    details::read::<Carried>(&m.details, "").unwrap().pots
                });
                assert_eq!(paid + pots_after.total() - pots_before.total(), 0, "{a:?}");
                assert_eq!(chips_held(&a.match_after), 0);
                hands += 1;
                held_back += a.irregularities.len();
                pots += d["pots_taken"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|t| t["pot"] != "game")
                    .count();
                before = Some(a.match_after);
            }
        }
        assert!(
            hands == 180 && held_back > 50 && pots > 5,
            "{hands} hands, {held_back} held back, {pots} pots"
        );
    }
}
