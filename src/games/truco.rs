//! Truco, Brazilian (`docs/rules/truco.md`): four players in partnerships, 40 cards, play to the
//! right; the mão keeps, passes or rejects his packet; three tricks of any cards under a fixed card
//! order (4♣ 7♥ A♠ 7♦ on top), face-down cards from trick 2; the side winning two tricks (with the tie
//! rules) takes the stake, raised by truco, retruco, nine and queda; penalties of one tento; the
//! score-of-eleven and iron hands; game to 12 tentos.

use crate::cards::{Card, CardSet, Rank, Suit, packs};
use crate::engine::deal::{Count, HandSize, Holds, Part, Setup};
use crate::engine::{
    self, Adjudication, Contract, Effect, Event, Fault, FieldError, GameInfo, HandState,
    Irregularity, Locus, MatchState, NoDetails, OptionKind, OptionSpec, Options, PerSide,
    RecordError, Rules, ScoreSource, Seat, Side, Table, TableView, TrickPlay, TrickReport, deal,
};
use crate::record::{Action, HandRecord, Yes};
use utoipa::ToSchema;

pub struct Truco;

/// One shuffle of the pack (Truco allows a single riffle and no wash or strip shuffle).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Shuffle {
    Riffle,
    Wash,
    Strip,
}

impl crate::record::Placeholder for Shuffle {
    const PLACEHOLDER: &'static str = "<riffle, wash or strip>";
}

crate::verbs! {
    /// What a record of Truco can say.
    #[derive(Copy)]
    pub enum Verb in "Truco" {
        Shuffle(Shuffle) = "shuffle": "Procedure data: one shuffle by the dealer, `riffle`, `wash` or `strip`.",
        Cut(u8) = "cut": "Procedure data: one cut by the dealer's left-hand opponent, into this many piles.",
        Keep(Yes) = "keep": "The mão keeps the packet just dealt to him (value `true`).",
        PassToPartner(Yes) = "pass_to_partner": "The mão passes the packet just dealt to him to his partner (value `true`).",
        Reject(Yes) = "reject": "The mão rejects the packet just dealt to him; it is turned face up, dead (value `true`).",
        Accept(Yes) = "accept": "Accepts the raised stake, or the score-of-eleven hand: play it (value `true`).",
        Run(Yes) = "run": "Refuses the stake offered and concedes the hand: runs away from a raise, or from the score-of-eleven hand (value `true`).",
        Raise(Yes) = "raise": "Raises the stake to its next step: truco, retruco, nine, queda (value `true`).",
        Play(Card) = "play": "A card played to the current trick.",
        PlayFaceDown(Card) = "play_face_down": "A card played face down to the current trick; it cannot win it.",
        Disclosure(Yes) = "disclosure": "The seat disclosed the content of its hand by words or by showing cards (value `true`).",
        Correct(Card) = "correct": "Replaces the seat's card in the current, incomplete trick (a revoke correction).",
    }
}

static INFO: GameInfo = GameInfo {
    id: "truco",
    name: "Truco (Brazilian)",
    tables: crate::engine::Tables(&[Table::FOUR.counterclockwise()]),
    deck: "40-card pack (A K Q J 7 6 5 4 3 2)",
    game_target: GAME,
    options: &[
        OptionSpec {
            name: "deal_passes",
            kind: OptionKind::Choice {
                values: &["right", "left"],
                default: "right",
            },
            description: "`right`: the mão deals the next hand (the ruling, play running to the right); \
                          `left`: the dealer's left-hand player deals next.",
            rule: "truco.md §6 TR-1",
        },
        OptionSpec {
            name: "raises_only_in_response_chain",
            kind: OptionKind::Flag { default: false },
            description: "Once a raise is accepted nobody may raise again in the hand (the ruling allows \
                          later raises, the sides alternating).",
            rule: "truco.md §6 TR-4",
        },
        OptionSpec {
            name: "face_down_first_trick",
            kind: OptionKind::Choice {
                values: &["penalty", "malformed"],
                default: "penalty",
            },
            description: "`penalty`: a face-down card in trick 1 counts as played face up and is the \
                          irregularity `face_down_first_trick` (§5 DEFAULT); `malformed`: such a record \
                          is a record error.",
            rule: "truco.md §6 TR-8",
        },
        OptionSpec {
            name: "face_down_penalty",
            kind: OptionKind::Choice {
                values: &["default", "none"],
                default: "default",
            },
            description: "`default`: the §5 DEFAULT penalty (1 tento to the opponents) for \
                          `face_down_first_trick`; `none`: reported only. Truco has no revoke; the \
                          prescribed penalties always apply.",
            rule: "README Penalties; truco.md §5",
        },
    ],
    rules: "docs/rules/truco.md",
    irregularities: &[
        "bad_procedure",
        "illegal_reject",
        "disclosure",
        "illegal_raise",
        "face_down_first_trick",
    ],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    record_errors: &[
        "out_of_turn",
        "unexpected_action",
        "raise_pending",
        "rejected_packets_mismatch",
        "face_down_first_trick",
        "action_after_end",
        "incomplete_hand",
        "card_not_held",
        "card_played_twice",
        "invalid_correct",
    ],
    events: &[
        "packet_passed",
        "packet_rejected",
        "stake_raised",
        "stake_accepted",
        "ran_away",
        "eleven_play",
        "eleven_run",
        "hand_won",
        "hand_tied",
    ],
    score_codes: &["hand_won", "ran_away", "eleven_run"],
    titles: crate::engine::Titles(&[
        ("bad_procedure", "Bad procedure in shuffling or cutting"),
        ("illegal_reject", "Rejection or pass the rules do not allow"),
        ("disclosure", "Hand disclosed to the table"),
        ("illegal_raise", "Raise the rules do not allow"),
        (
            "face_down_first_trick",
            "Card played face down in the first trick",
        ),
        ("raise_pending", "Play while a raise awaits an answer"),
        (
            "rejected_packets_mismatch",
            "Rejected packets that do not match the deal",
        ),
        ("packet_passed", "Packet passed"),
        ("packet_rejected", "Packet rejected"),
        ("stake_raised", "Stake raised"),
        ("stake_accepted", "Stake accepted"),
        ("ran_away", "Ran from a raise"),
        ("eleven_play", "Played on at a score of eleven"),
        ("eleven_run", "Ran at a score of eleven"),
        ("hand_tied", "Hand tied"),
    ]),
};

/// §4: first side to 12 tentos wins the game.
const GAME: i32 = 12;
const CARDS: usize = 3;
/// §3.1: at most three rejected packets per deal.
const MAX_REJECTS: u8 = 3;
/// §3.3: 1 (base) → 3 truco → 6 retruco → 9 nine → 12 queda.
const LADDER: [i32; 5] = [1, 3, 6, 9, 12];
/// §4: the score-of-eleven hand is played for 3.
const ELEVEN_STAKE: i32 = 3;

/// §1: 4♣ > 7♥ > A♠ > 7♦ > 3 > 2 > A > K > J > Q > 7 > 6 > 5 > 4, suits otherwise irrelevant.
fn strength(card: Card) -> u16 {
    let (rank, suit) = (card.rank_unchecked(), card.suit_unchecked());
    match (rank, suit) {
        (Rank::Four, Suit::Clubs) => 14,
        (Rank::Seven, Suit::Hearts) => 13,
        (Rank::Ace, Suit::Spades) => 12,
        (Rank::Seven, Suit::Diamonds) => 11,
        _ => match rank {
            Rank::Three => 10,
            Rank::Two => 9,
            Rank::Ace => 8,
            Rank::King => 7,
            Rank::Jack => 6,
            Rank::Queen => 5,
            Rank::Seven => 4,
            Rank::Six => 3,
            Rank::Five => 2,
            _ => 1, // the four
        },
    }
}

fn step_name(stake: i32) -> &'static str {
    match stake {
        3 => "truco",
        6 => "retruco",
        9 => "nine",
        _ => "queda",
    }
}

fn next_step(stake: i32) -> i32 {
    LADDER.iter().copied().find(|&s| s > stake).unwrap_or(stake)
}

/// Which kind of hand the score before it makes (TU-b).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Normal,
    /// §4: one side at 11, the other below.
    Eleven {
        leading: Side,
    },
    /// §4: both at 11.
    Iron,
}

/// §3.2: the hand's result once decided by its tricks (TR-5): a side, or nobody after three ties.
/// `None` while undecided.
fn hand_result(tricks: &[Option<Side>]) -> Option<Option<Side>> {
    for side in Side::BOTH {
        if tricks.iter().filter(|&&t| t == Some(side)).count() >= 2 {
            return Some(Some(side));
        }
    }
    let later_tie = tricks.iter().skip(1).any(Option::is_none);
    match tricks.first() {
        // A tie after trick 1 was won gives the hand to trick 1's winner.
        Some(Some(first)) if later_tie => return Some(Some(*first)),
        // Trick 1 tied: the next decided trick wins the hand.
        Some(None) => {
            if let Some(side) = tricks.iter().skip(1).flatten().next() {
                return Some(Some(*side));
            }
        }
        _ => {}
    }
    (tricks.len() == 3).then_some(None)
}

impl Rules for Truco {
    type Verb = Verb;
    type Details = NoDetails;
    type Carried = NoDetails;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn setup(&self, _: &Options) -> Setup {
        Setup {
            pack: packs::latin40(),
            hand: HandSize::Each(CARDS),
            counted_by: None,
            parts: &[Holds {
                part: Part::FaceUp,
                what: "the packets the mão rejected, 3 cards each, in order",
                count: Count::Between(0, 9),
            }],
        }
    }

    fn table(&self, _: &Options) -> Table {
        Table::FOUR.counterclockwise()
    }

    /// TR-1: the mão (the next seat in play, to the right) deals next, or the dealer's left.
    fn rotation(&self, options: &Options) -> engine::Rotation {
        match options.choice("deal_passes") {
            "left" => engine::Rotation::Left,
            _ => engine::Rotation::Next,
        }
    }

    fn start(
        &self,
        record: &HandRecord<Verb>,
        options: &Options,
        table: Table,
        before: &MatchState,
    ) -> Result<Box<dyn HandState<Verb>>, Vec<FieldError>> {
        let pack = packs::latin40();
        let mut dealt = deal::check_cards(record, table, &pack)?;
        deal::check_undealt(&record.face_up, "face_up", &pack, &mut dealt)?;
        let scores = before.scores;
        let out_of_range: Vec<FieldError> = Side::BOTH
            .into_iter()
            .filter(|&side| !(0..GAME).contains(&scores[side]))
            .map(|side| {
                FieldError::new(
                    format!("/match_state/scores/{side}"),
                    format!(
                        "a game in progress has 0 to 11 tentos per side, not {} (tentos never go below 0; 12 ends the game)",
                        scores[side]
                    ),
                )
            })
            .collect();
        if !out_of_range.is_empty() {
            return Err(out_of_range);
        }
        let kind = match (scores[Side::NS] >= GAME - 1, scores[Side::EW] >= GAME - 1) {
            (true, true) => Kind::Iron,
            (true, false) => Kind::Eleven { leading: Side::NS },
            (false, true) => Kind::Eleven { leading: Side::EW },
            (false, false) => Kind::Normal,
        };
        let face_up = record.face_up.len();
        if kind != Kind::Normal && face_up > 0 {
            return Err(vec![FieldError::new(
                "/face_up".into(),
                "at a score of eleven the deal is plain: no packet can be rejected (§4)".into(),
            )]);
        }
        if !face_up.is_multiple_of(CARDS) {
            return Err(vec![FieldError::new(
                "/face_up".into(),
                format!(
                    "face_up lists the rejected packets, 3 cards each: {face_up} cards is not whole packets"
                ),
            )]);
        }
        let dealer = record.dealer;
        let mao = table.next(dealer);
        let adj = Adjudication::new(INFO.id, dealer, before, CARDS);
        Ok(Box::new(Hand {
            table,
            kind,
            mao,
            rejected: record
                .face_up
                .chunks(CARDS)
                .map(|c| [c[0], c[1], c[2]])
                .collect(),
            partner_packet: record
                .deal
                .iter()
                .find(|(s, _)| table.resolve(**s) == Some(table.left(table.left(mao))))
                .map(|(_, c)| c.clone())
                .unwrap_or_default(),
            play: TrickPlay::new(table, dealt.hands, mao).with_face_down(),
            stage: match kind {
                Kind::Normal => Stage::Dealing {
                    rejects: 0,
                    passed: false,
                },
                Kind::Eleven { .. } => Stage::Eleven,
                Kind::Iron => Stage::Play,
            },
            procedure_open: true,
            riffles: 0,
            cuts: 0,
            faulted: [false; 2],
            stake: if kind == Kind::Normal {
                LADDER[0]
            } else if kind == Kind::Iron {
                1 // TU-f
            } else {
                ELEVEN_STAKE
            },
            pending: None,
            last_accepted: None,
            face_down: CardSet::EMPTY,
            results: Vec::new(),
            result: None,
            running: scores,
            deal_passes_left: options.choice("deal_passes") == "left",
            chain_only: options.flag("raises_only_in_response_chain"),
            face_down_malformed: options.choice("face_down_first_trick") == "malformed",
            default_penalty: options.choice("face_down_penalty") == "default",
            adj,
        }))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// §3.1: the mão decides packets until he keeps one.
    Dealing {
        rejects: u8,
        passed: bool,
    },
    /// §4: the leading side may run or play until the first card (TU-e).
    Eleven,
    Play,
    Over,
}

/// A raise awaiting its answer (§3.3).
#[derive(Clone, Copy, Debug)]
struct Pending {
    caller: Seat,
    /// The stake offered; the stake in force stays until it is accepted.
    offered: i32,
}

/// How the hand ended.
#[derive(Clone, Copy, Debug)]
enum Ending {
    /// Won on tricks (`ran` `None`) or by a run (the run's action index): the side, the tentos,
    /// and the seat that decided it.
    Won {
        side: Side,
        tentos: i32,
        seat: Seat,
        ran: Option<usize>,
    },
    /// §4 score of eleven: the leading side ran (action `index`); the opponents score 1.
    ElevenRun {
        side: Side,
        seat: Seat,
        index: usize,
    },
    /// All three tricks tied (TR-5).
    Nobody,
}

#[derive(Clone)]
struct Hand {
    table: Table,
    kind: Kind,
    mao: Seat,
    /// The `face_up` packets, in the order they were rejected.
    rejected: Vec<[Card; 3]>,
    /// The mão's partner's cards (the passed packet, when he passes).
    partner_packet: Vec<Card>,
    play: TrickPlay,
    stage: Stage,
    /// Shuffles and cuts may be recorded until the deal starts.
    procedure_open: bool,
    riffles: u8,
    cuts: u8,
    /// TU-i: whether the shuffle, and the cut, have already cost their one `bad_procedure`.
    faulted: [bool; 2],
    /// The stake in force.
    stake: i32,
    pending: Option<Pending>,
    /// The side whose raise was last accepted (TR-4: the other side raises next).
    last_accepted: Option<(Side, Seat)>,
    /// The cards of the current trick played face down.
    face_down: CardSet,
    /// Each completed trick's winning side, `None` when tied.
    results: Vec<Option<Side>>,
    result: Option<Ending>,
    /// Scores with the penalties applied so far (TU-a, TU-b).
    running: PerSide<i32>,
    deal_passes_left: bool,
    chain_only: bool,
    face_down_malformed: bool,
    default_penalty: bool,
    adj: Adjudication,
}

impl Hand {
    /// The phase the table is in and the seats that may act in it: the mão while the deal goes
    /// on; both opponents of a pending raise's caller; at a score of eleven, the leading side
    /// (to decide) and the player to play; none once over.
    fn turn(&self) -> (&'static str, Vec<Seat>) {
        match (self.stage, self.pending) {
            (Stage::Dealing { .. }, _) => ("deal", vec![self.mao]),
            (Stage::Over, _) => ("over", Vec::new()),
            (_, Some(p)) => (
                "answer",
                self.table
                    .seats()
                    .filter(|&s| Table::FOUR.side(s) != Table::FOUR.side(p.caller))
                    .collect(),
            ),
            (stage, None) => {
                let mut to_act = Vec::new();
                if let (Stage::Eleven, Kind::Eleven { leading }) = (stage, self.kind) {
                    to_act.extend(
                        self.table
                            .seats()
                            .filter(|&s| Table::FOUR.side(s) == leading),
                    );
                }
                if let Some(seat) = self.play.to_play()
                    && !to_act.contains(&seat)
                {
                    to_act.push(seat);
                }
                let phase = if stage == Stage::Eleven {
                    "decision"
                } else {
                    "play"
                };
                (phase, to_act)
            }
        }
    }

    /// The trick in progress; `None` before the first card of trick 1 (README C13), whatever the
    /// kind of hand.
    fn trick_number(&self) -> Option<u8> {
        let started = !self.adj.tricks.is_empty() || !self.play.trick.is_empty();
        started.then_some(self.play.trick.number)
    }

    /// §5: the offenders' opponents gain 1 tento, never their twelfth (TR-6): then the offenders lose
    /// 1, not below 0. Applied at once (TU-a), as a score item and the irregularity's effect.
    /// `default` marks the §5 DEFAULT penalty (switched off by `face_down_penalty = none`).
    fn penalize(
        &mut self,
        index: usize,
        seat: Seat,
        card: Option<Card>,
        fault: Fault,
        default: bool,
    ) {
        let offenders = Table::FOUR.side(seat);
        let gainers = offenders.other();
        let (moved, consequence) = if default && !self.default_penalty {
            (
                None,
                "none: the face_down_penalty option is 'none' (the §5 DEFAULT is switched off)"
                    .to_string(),
            )
        } else if self.running[gainers] + 1 >= GAME {
            let from = self.running[offenders];
            let to = (from - 1).max(0);
            (
                (to < from).then_some((offenders, -1)),
                format!(
                    "{} are at {}: a penalty cannot give them their twelfth tento, so {} lose 1 instead ({from} → {to}) (truco.md §5, TR-6)",
                    gainers.spoken(),
                    self.running[gainers],
                    offenders.spoken(),
                ),
            )
        } else {
            (
                Some((gainers, 1)),
                format!(
                    "{} gain 1 tento at once ({} → {}) (truco.md §5{})",
                    gainers.spoken(),
                    self.running[gainers],
                    self.running[gainers] + 1,
                    if default { ", DEFAULT" } else { "" }
                ),
            )
        };
        let trick = self.trick_number();
        self.adj.irregularities.push(Irregularity {
            code: fault.code,
            action_index: Some(index),
            trick,
            seat,
            card,
            rule: fault.rule,
            explanation: fault.explanation,
            consequence,
            effect: Effect::default(),
        });
        if let Some((side, points)) = moved {
            self.running[side] += points;
            let at = self.adj.irregularities.len() - 1;
            self.adj.penalize(at, side, points);
        }
    }

    /// Is an action by `seat` due now? (README C12: the seat is judged before the verb.)
    fn is_due(&self, seat: Seat) -> bool {
        match (self.stage, self.pending) {
            (Stage::Dealing { .. }, _) => seat == self.mao,
            (Stage::Over, _) => false,
            (_, Some(p)) => Table::FOUR.side(p.caller) != Table::FOUR.side(seat),
            (Stage::Eleven, None) if matches!(self.kind, Kind::Eleven { leading } if Table::FOUR.side(seat) == leading) => {
                true
            }
            _ => self.play.to_play() == Some(seat),
        }
    }

    /// An action that does not fit the phase: `unexpected_action` from a seat due to act, else
    /// `out_of_turn` (README C12).
    fn misplaced(&self, index: usize, action: &Action<Verb>, detail: String) -> RecordError {
        if self.is_due(action.seat) {
            return RecordError::unexpected(index, action, detail);
        }
        RecordError::on(
            "out_of_turn",
            index,
            action,
            format!("{} is not due to act now ({detail})", action.seat),
        )
    }

    fn partner(&self, seat: Seat) -> Seat {
        self.table.left(self.table.left(seat))
    }

    /// TU-i: is this the first fault of procedure `which` (0 the shuffle, 1 the cut) in the hand?
    /// `bad_procedure` is counted once per procedure; later faults of it add nothing.
    fn first_fault(&mut self, which: usize) -> bool {
        !std::mem::replace(&mut self.faulted[which], true)
    }

    /// Shuffles and cuts (§5 `bad_procedure`), recorded before the deal.
    fn procedure(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        if !self.procedure_open {
            return Err(self.misplaced(
                index,
                action,
                "shuffles and cuts come before the deal".into(),
            ));
        }
        let seat = action.seat;
        let dealer = self.adj.dealer;
        match action.kind {
            Verb::Shuffle(kind) => {
                if seat != dealer {
                    return Err(RecordError::on(
                        "out_of_turn",
                        index,
                        action,
                        format!("{dealer} deals and shuffles, not {seat}"),
                    ));
                }
                let fault = match kind {
                    Shuffle::Riffle => {
                        self.riffles = self.riffles.saturating_add(1);
                        (self.riffles > 1).then(|| {
                            format!("{seat} riffled the pack a second time: only a single riffle shuffle is allowed")
                        })
                    }
                    Shuffle::Wash | Shuffle::Strip => Some(format!(
                        "{seat} used a {} shuffle: only a single riffle shuffle is allowed",
                        if kind == Shuffle::Wash {
                            "wash"
                        } else {
                            "strip"
                        }
                    )),
                };
                if let Some(explanation) = fault.filter(|_| self.first_fault(0)) {
                    self.penalize(
                        index,
                        seat,
                        None,
                        Fault::new("bad_procedure", "truco.md §5", explanation),
                        false,
                    );
                }
            }
            Verb::Cut(piles) => {
                let cutter = self.table.left(dealer);
                if seat != cutter {
                    return Err(RecordError::on(
                        "out_of_turn",
                        index,
                        action,
                        format!("the dealer's left-hand player, {cutter}, cuts, not {seat}"),
                    ));
                }
                self.cuts = self.cuts.saturating_add(1);
                let mut faults = Vec::new();
                if piles != 2 {
                    faults.push(format!(
                        "cut the pack into {piles} piles instead of exactly two"
                    ));
                }
                if self.cuts > 3 {
                    faults.push(format!(
                        "made cut number {}: one to three cuts are allowed",
                        self.cuts
                    ));
                }
                if !faults.is_empty() && self.first_fault(1) {
                    let explanation = format!("{seat} {}", faults.join(" and "));
                    self.penalize(
                        index,
                        seat,
                        None,
                        Fault::new("bad_procedure", "truco.md §5", explanation),
                        false,
                    );
                }
            }
            _ => unreachable!("only shuffles and cuts are procedure"),
        }
        Ok(())
    }

    /// §3.1: the mão's decision on the packet just dealt to him.
    fn packet(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        let Stage::Dealing { rejects, passed } = self.stage else {
            let before_first_card = self.adj.tricks.is_empty() && self.play.trick.is_empty();
            if self.kind != Kind::Normal
                && before_first_card
                && seat == self.mao
                && !matches!(action.kind, Verb::Keep(_))
            {
                // §4: no passing or rejecting at a score of eleven; TU-c: nothing else changes.
                self.penalize(
                    index,
                    seat,
                    None,
                    Fault::new(
                        "illegal_reject",
                        "truco.md §4, §5",
                        format!(
                            "{seat} tried to {} at a score of eleven, where the deal is plain",
                            if matches!(action.kind, Verb::Reject(_)) {
                                "reject his cards"
                            } else {
                                "pass his cards"
                            }
                        ),
                    ),
                    false,
                );
                return Ok(());
            }
            return Err(self.misplaced(
                index,
                action,
                "the deal is complete: no packet is being decided".into(),
            ));
        };
        if seat != self.mao {
            return Err(RecordError::on(
                "out_of_turn",
                index,
                action,
                format!("only the mão, {}, decides on the packets", self.mao),
            ));
        }
        self.procedure_open = false;
        let listed = self.rejected.len() as u8;
        match action.kind {
            Verb::Keep(_) => {
                if rejects < listed {
                    return Err(RecordError::on(
                        "rejected_packets_mismatch",
                        index,
                        action,
                        format!(
                            "face_up lists {listed} rejected packets but the mão rejected {rejects} before keeping"
                        ),
                    ));
                }
                self.stage = Stage::Play;
            }
            Verb::PassToPartner(_) if passed => {
                self.penalize(
                    index,
                    seat,
                    None,
                    Fault::new(
                        "illegal_reject",
                        "truco.md §3.1, §5",
                        format!(
                            "{seat} tried to pass a second packet to his partner (no second pass)"
                        ),
                    ),
                    false,
                );
            }
            Verb::PassToPartner(_) => {
                let partner = self.partner(seat);
                let cards = self.partner_packet.clone();
                self.adj.events.push(Event::new(
                    "packet_passed",
                    index,
                    partner,
                    cards,
                    format!(
                        "{seat} passes his packet to his partner {partner} and receives a new one"
                    ),
                ).in_trick(self.trick_number()));
                self.stage = Stage::Dealing {
                    rejects,
                    passed: true,
                };
            }
            Verb::Reject(_) if rejects >= MAX_REJECTS => {
                self.penalize(
                    index,
                    seat,
                    None,
                    Fault::new(
                        "illegal_reject",
                        "truco.md §3.1, §5",
                        format!("{seat} tried to reject a fourth packet: at most three per deal"),
                    ),
                    false,
                );
            }
            Verb::Reject(_) => {
                let Some(cards) = self.rejected.get(rejects as usize).copied() else {
                    return Err(RecordError::on(
                        "rejected_packets_mismatch",
                        index,
                        action,
                        format!(
                            "rejection {} has no packet in face_up (it lists {listed})",
                            rejects + 1
                        ),
                    ));
                };
                self.adj.events.push(
                    Event::new(
                        "packet_rejected",
                        index,
                        seat,
                        cards.to_vec(),
                        format!("{seat} rejects a packet: it is turned face up and is out of play"),
                    )
                    .in_trick(self.trick_number()),
                );
                self.stage = Stage::Dealing {
                    rejects: rejects + 1,
                    passed,
                };
            }
            _ => unreachable!("packet decisions only"),
        }
        Ok(())
    }

    /// Can `seat` raise now? `Some` = the raise is the irregularity `illegal_raise`, with this
    /// explanation; `None` = legal. `answering` when it answers a raise (v is then the stake offered
    /// to it, §3.3).
    fn raise_check(&self, seat: Seat, answering: bool) -> Option<String> {
        if self.kind != Kind::Normal {
            return Some(format!(
                "{seat} raised the stake at a score of eleven, where no raise is allowed; the call is void (TU-c)"
            ));
        }
        let side = Table::FOUR.side(seat);
        // Answering a raise accepts it first, so the answer always alternates (TR-7).
        if !answering && let Some((last, by)) = self.last_accepted {
            if self.chain_only {
                return Some(format!(
                    "{seat} raised after {by}'s raise was accepted: under raises_only_in_response_chain nobody raises again (TR-4); the call is void (TU-h, TU-c)"
                ));
            }
            if last == side {
                return Some(format!(
                    "{seat} raised, but {by}'s raise was the last accepted and the sides alternate: only {} may raise next (TR-4); the call is void (TU-h, TU-c)",
                    side.other().spoken()
                ));
            }
        }
        let v = match self.pending {
            Some(p) if answering => p.offered,
            _ => self.stake,
        };
        let s = self.running[side];
        (s + v >= GAME).then(|| format!(
            "{seat} raised with {} at {s} able to win {v} already: {s} + {v} ≥ 12, beyond the limit; the call is void (TU-c)",
            side.spoken()
        ))
    }

    fn raise(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        self.require_dealt(index, action)?;
        let answering = match self.pending {
            Some(p) if Table::FOUR.side(p.caller) != Table::FOUR.side(seat) => true,
            Some(p) => {
                return Err(RecordError::on(
                    "out_of_turn",
                    index,
                    action,
                    format!(
                        "{}'s {} awaits an answer from the opponents",
                        p.caller,
                        step_name(p.offered)
                    ),
                ));
            }
            None if self.play.to_play() != Some(seat) => {
                return Err(RecordError::on(
                    "out_of_turn",
                    index,
                    action,
                    format!(
                        "a raise is called at one's own turn before playing (TR-2): it is {}'s turn",
                        self.play
                            .to_play()
                            .map_or("nobody".into(), |s| s.to_string())
                    ),
                ));
            }
            None => false,
        };
        match self.raise_check(seat, answering) {
            Some(explanation) => {
                // TU-c: nothing changes beyond the penalty.
                self.penalize(
                    index,
                    seat,
                    None,
                    Fault::new("illegal_raise", "truco.md §3.3, §5", explanation),
                    false,
                );
                Ok(())
            }
            None => {
                if let Some(p) = self.pending {
                    // Raising answers the call: its stake is taken as accepted (TR-7).
                    self.stake = p.offered;
                    self.last_accepted = Some((Table::FOUR.side(p.caller), p.caller));
                }
                let offered = next_step(self.stake);
                self.pending = Some(Pending {
                    caller: seat,
                    offered,
                });
                self.adj.events.push(
                    Event::new(
                        "stake_raised",
                        index,
                        seat,
                        Vec::new(),
                        format!(
                            "{seat} calls {}: {offered} tentos offered, {} in force",
                            step_name(offered),
                            self.stake
                        ),
                    )
                    .in_trick(self.trick_number()),
                );
                Ok(())
            }
        }
    }

    /// `accept` / `run`: the answer to a raise, or the score-of-eleven decision.
    fn answer(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        let run = matches!(action.kind, Verb::Run(_));
        if let (Stage::Eleven, Kind::Eleven { leading }) = (self.stage, self.kind) {
            if Table::FOUR.side(seat) != leading {
                return Err(RecordError::on(
                    "out_of_turn",
                    index,
                    action,
                    format!(
                        "only the leading side, {}, decides at a score of eleven",
                        leading.spoken()
                    ),
                ));
            }
            self.procedure_open = false;
            if run {
                self.adj.events.push(
                    Event::new(
                        "eleven_run",
                        index,
                        seat,
                        Vec::new(),
                        format!(
                            "{} run from the score-of-eleven hand: {} score 1",
                            leading.spoken(),
                            leading.other().spoken()
                        ),
                    )
                    .in_trick(self.trick_number()),
                );
                self.end(Ending::ElevenRun {
                    side: leading.other(),
                    seat,
                    index,
                });
            } else {
                self.adj.events.push(
                    Event::new(
                        "eleven_play",
                        index,
                        seat,
                        Vec::new(),
                        format!(
                            "{} play the score-of-eleven hand for {ELEVEN_STAKE} tentos",
                            leading.spoken()
                        ),
                    )
                    .in_trick(self.trick_number()),
                );
                self.stage = Stage::Play;
            }
            return Ok(());
        }
        self.require_dealt(index, action)?;
        let Some(p) = self.pending else {
            // TU-h: an answer with no raise pending (a void raise's included) is unexpected_action,
            // whoever gives it.
            return Err(RecordError::unexpected(
                index,
                action,
                "no raise awaits an answer (a void raise is not answered, TU-h)".into(),
            ));
        };
        if Table::FOUR.side(p.caller) == Table::FOUR.side(seat) {
            return Err(RecordError::on(
                "out_of_turn",
                index,
                action,
                format!(
                    "{}'s {} is answered by the opponents",
                    p.caller,
                    step_name(p.offered)
                ),
            ));
        }
        self.pending = None;
        if run {
            let side = Table::FOUR.side(p.caller);
            self.adj.events.push(
                Event::new(
                    "ran_away",
                    index,
                    seat,
                    Vec::new(),
                    format!(
                        "{seat} runs from {}'s {}: {} win the hand for {} (TR-7)",
                        p.caller,
                        step_name(p.offered),
                        side.spoken(),
                        self.stake
                    ),
                )
                .in_trick(self.trick_number()),
            );
            let tentos = self.stake;
            // A trick cut short by the run is still listed, with the cards played to it.
            if !self.play.trick.is_empty() {
                let mut cut_short = TrickReport::ruled(self.play.trick, None);
                cut_short.complete = false;
                self.adj.tricks.push(cut_short);
            }
            self.end(Ending::Won {
                side,
                tentos,
                seat: p.caller,
                ran: Some(index),
            });
        } else {
            self.stake = p.offered;
            self.last_accepted = Some((Table::FOUR.side(p.caller), p.caller));
            self.adj.events.push(
                Event::new(
                    "stake_accepted",
                    index,
                    seat,
                    Vec::new(),
                    format!(
                        "{seat} accepts {}: the hand is played for {}",
                        step_name(p.offered),
                        p.offered
                    ),
                )
                .in_trick(self.trick_number()),
            );
        }
        Ok(())
    }

    fn require_dealt(&self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        match self.stage {
            Stage::Dealing { .. } => Err(self.misplaced(
                index,
                action,
                format!(
                    "the deal is not complete: the mão, {}, has not kept a packet",
                    self.mao
                ),
            )),
            _ => Ok(()),
        }
    }

    fn play_card(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        card: Card,
        face_down: bool,
    ) -> Result<(), RecordError> {
        let seat = action.seat;
        self.require_dealt(index, action)?;
        if let Some(p) = self.pending {
            return Err(RecordError::on(
                "raise_pending",
                index,
                action,
                format!(
                    "{}'s {} must be answered before a card is played",
                    p.caller,
                    step_name(p.offered)
                ),
            ));
        }
        let trick = self.play.trick.number;
        let mut counts_face_down = face_down;
        if face_down && self.kind == Kind::Iron {
            return Err(self.misplaced(
                index,
                action,
                "the iron hand is played by turning the cards up: nobody plays face down (§4)"
                    .into(),
            ));
        }
        if face_down && trick == 1 && self.face_down_malformed {
            return Err(RecordError::on(
                "face_down_first_trick",
                index,
                action,
                "no card may be played face down in trick 1 (§3.2; option face_down_first_trick = malformed)".into(),
            ));
        }
        if face_down && trick == 1 {
            counts_face_down = false;
        }
        self.play.play(index, seat, card, None)?;
        if self.stage == Stage::Eleven {
            // TU-e: no decision before the first card means play.
            if let Kind::Eleven { leading } = self.kind {
                self.adj.events.push(Event::new(
                    "eleven_play",
                    None,
                    None,
                    Vec::new(),
                    format!("no decision before the first card: {} play the score-of-eleven hand for {ELEVEN_STAKE} tentos (TU-e)", leading.spoken()),
                ).in_trick(self.trick_number()));
            }
            self.stage = Stage::Play;
        }
        self.procedure_open = false;
        if counts_face_down {
            self.face_down.insert(card);
            let pos = self.play.trick.len() - 1;
            self.play.trick.set_face_down(pos);
        }
        if face_down && trick == 1 {
            self.penalize(
                index,
                seat,
                Some(card),
                Fault::new("face_down_first_trick", "truco.md §5 DEFAULT, TR-8", format!("{seat} played {card} face down in trick 1, where face-down cards are not allowed; it counts as played face up")),
                true,
            );
        }
        if self.play.is_complete() {
            self.close_trick();
        }
        Ok(())
    }

    /// §3.2: the highest card wins; a same-side tie goes to that side (the earlier card leads next),
    /// an opposing tie is a tied trick (the earlier of the tying players leads next); TU-d: four
    /// face-down cards tie the trick and its leader leads again.
    fn close_trick(&mut self) {
        let face_down = self.face_down;
        let trick = self.play.trick;
        let best = trick.best_positions_by(|c| (!face_down.contains(c)).then(|| strength(c)));
        let plays = trick.plays();
        let (winner, next) = match best.first() {
            None => (None, trick.leader),
            Some(&first) => {
                let seat = plays[first].seat;
                let one_side = best
                    .iter()
                    .all(|&i| Table::FOUR.side(plays[i].seat) == Table::FOUR.side(seat));
                (one_side.then_some(seat), seat)
            }
        };
        let (trick, _) = self.play.close_trick(next);
        self.face_down = CardSet::EMPTY;
        if let Some(w) = winner {
            self.adj.tally[Table::FOUR.side(w)].tricks += 1;
        }
        self.results.push(winner.map(|w| Table::FOUR.side(w)));
        self.adj.tricks.push(TrickReport::ruled(trick, winner));
        match hand_result(&self.results) {
            None => {}
            Some(None) => self.end(Ending::Nobody),
            Some(Some(side)) => {
                // The seat that decided it: the last trick's winner, or trick 1's on a later tie.
                let seat = self
                    .adj
                    .tricks
                    .iter()
                    .rev()
                    .find_map(|t| t.winner.filter(|&w| Table::FOUR.side(w) == side))
                    .unwrap_or(next);
                let tentos = self.stake;
                self.end(Ending::Won {
                    side,
                    tentos,
                    seat,
                    ran: None,
                });
            }
        }
    }

    /// The hand is decided: no more actions (TU-g).
    fn end(&mut self, ending: Ending) {
        self.result = Some(ending);
        self.stage = Stage::Over;
        self.play.stop();
    }

    fn next_dealer(&self) -> Seat {
        let dealer = self.adj.dealer;
        if self.deal_passes_left {
            self.table.left(dealer)
        } else {
            self.table.next(dealer) // TR-1: the mão deals next
        }
    }
}

impl HandState<Verb> for Hand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        if let Stage::Over = self.stage {
            return Err(RecordError::after_end(
                index,
                action,
                "the hand is already decided (TU-g)",
            ));
        }
        match action.kind {
            Verb::Shuffle(_) | Verb::Cut(_) => self.procedure(index, action),
            Verb::Keep(_) | Verb::PassToPartner(_) | Verb::Reject(_) => self.packet(index, action),
            Verb::Raise(Yes) => self.raise(index, action),
            Verb::Accept(_) | Verb::Run(_) => self.answer(index, action),
            Verb::Play(card) => self.play_card(index, action, card, false),
            Verb::PlayFaceDown(card) => self.play_card(index, action, card, true),
            // README C11: no card can be wrong in Truco (§3.2: any card may be played), so no seat is
            // ever entitled to a correction.
            Verb::Correct(card) => self.play.correct(index, action.seat, card, |_, _, _| None),
            Verb::Disclosure(Yes) => {
                let seat = action.seat;
                self.penalize(
                    index,
                    seat,
                    None,
                    Fault::new("disclosure", "truco.md §5", format!("{seat} disclosed the content of his hand by words or by showing cards (signals are allowed)")),
                    false,
                );
                Ok(())
            }
        }
    }

    fn view(&self) -> TableView {
        let (phase, to_act) = self.turn();
        let mut state = self.adj.match_after.clone();
        state.scores = self.running;
        let mut view = TableView::new(phase, to_act, &self.play, &state);
        view.tally = self.adj.tally.clone();
        view.irregularities = self.adj.irregularities.clone();
        view
    }

    fn locus(&self) -> Locus {
        Locus::of_play(&self.play, self.turn().1.is_empty())
    }

    /// The mão's three packet decisions while the deal goes on; then every seat's answers (to a
    /// raise, or the score-of-eleven decision) and raise, and the cards of the seat to play, face
    /// up and face down. Procedure data (shuffles, cuts) and disclosures are what happened at the
    /// table, not choices of play: they are not offered.
    fn candidates(&self) -> Vec<Action<Verb>> {
        let at = |seat, kind| Action { seat, kind };
        match self.stage {
            Stage::Dealing { .. } => [Verb::Reject(Yes), Verb::PassToPartner(Yes), Verb::Keep(Yes)]
                .map(|kind| at(self.mao, kind))
                .to_vec(),
            Stage::Over => Vec::new(),
            Stage::Eleven | Stage::Play => {
                let mut out: Vec<Action<Verb>> = self
                    .table
                    .seats()
                    .flat_map(|s| {
                        [Verb::Accept(Yes), Verb::Run(Yes), Verb::Raise(Yes)].map(|k| at(s, k))
                    })
                    .collect();
                out.extend(self.play.candidates(Verb::Play, Verb::Correct));
                if let Some(seat) = self.play.to_play() {
                    let hand = self.play.hand(seat);
                    out.extend(hand.iter().map(|c| at(seat, Verb::PlayFaceDown(c))));
                }
                out
            }
        }
    }

    fn faulted(&self, index: usize) -> bool {
        self.adj.faulted(index) || self.play.faulted(index)
    }

    fn finish(mut self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        if let Some((side, seat)) = self.last_accepted {
            let mut c = Contract::new(seat, side);
            c.bid = Some(self.stake.into());
            self.adj.contract = Some(c);
        }
        let ending = match self.result {
            Some(_) => engine::Ending::Over,
            None => engine::Ending::Open {
                // TU-k: either opponent of the caller may answer a raise, so no one seat is due.
                due: self.play.to_play().filter(|_| self.pending.is_none()),
                detail: match self.stage {
                    Stage::Dealing { .. } => {
                        "the record stops before the mão keeps a packet".to_string()
                    }
                    _ if self.pending.is_some() => {
                        "the record stops while a raise awaits its answer".to_string()
                    }
                    _ => format!(
                        "the record stops in trick {} before the hand is decided",
                        self.play.trick.number
                    ),
                },
            },
        };
        let next_dealer = self.next_dealer();
        let (table, kind, result) = (self.table, self.kind, self.result);
        self.adj.conclude(error, ending, |adj| {
            let ending = result.expect("a decided hand has its result");
            score(adj, ending, kind, table, next_dealer)
        });
        self.adj
    }
}

/// Rules on a decided hand: the stake to the winners (or the one tento of a score-of-eleven run),
/// nothing on three tied tricks; the game at 12 (§3.3, §4).
fn score(adj: &mut Adjudication, ending: Ending, kind: Kind, table: Table, next_dealer: Seat) {
    let (winner, event) = match ending {
        Ending::Won {
            side,
            tentos,
            seat,
            ran,
        } => {
            let code = if ran.is_some() {
                "ran_away"
            } else {
                "hand_won"
            };
            adj.score(side, tentos, ScoreSource::Tricks, code, ran);
            (
                Some(side),
                Event::new(
                    "hand_won",
                    None,
                    seat,
                    Vec::new(),
                    format!(
                        "{} win the hand: {tentos} tento{}",
                        side.spoken(),
                        if tentos == 1 { "" } else { "s" }
                    ),
                ),
            )
        }
        Ending::ElevenRun { side, seat, index } => {
            // TU-e: not subject to the penalty cap.
            adj.score(side, 1, ScoreSource::Tricks, "eleven_run", Some(index));
            (
                Some(side),
                Event::new(
                    "hand_won",
                    None,
                    table.left(seat),
                    Vec::new(),
                    format!(
                        "{} win the hand: 1 tento (the leading side ran, §4)",
                        side.spoken()
                    ),
                ),
            )
        }
        Ending::Nobody => (
            None,
            Event::new(
                "hand_tied",
                None,
                None,
                Vec::new(),
                if kind == Kind::Iron {
                    "all three tricks tied: nobody scores, another iron hand is dealt (TU-f)".into()
                } else {
                    "all three tricks tied: nobody scores (TR-5)".into()
                },
            ),
        ),
    };
    adj.events.push(event);
    adj.hand_winner = winner;
    if let Some(c) = &mut adj.contract {
        c.made = Some(winner == Some(c.side));
    }
    adj.settle();
    let m = &mut adj.match_after;
    m.next_dealer = Some(next_dealer);
    // §4, TU-j: the game is won at 12, also after an iron hand (a side held at 11 plays another).
    if let Some(side) = Side::BOTH.into_iter().find(|&s| m.scores[s] >= GAME) {
        m.end_game([side]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_order_is_the_fixed_order() {
        let order = [
            "4C", "7H", "AS", "7D", "3S", "2H", "AH", "KD", "JC", "QS", "7C", "6D", "5H", "4S",
        ];
        let s: Vec<u16> = order.iter().map(|c| strength(c.parse().unwrap())).collect();
        assert!(s.windows(2).all(|w| w[0] > w[1]), "{s:?}");
        assert_eq!(
            strength("3D".parse().unwrap()),
            strength("3C".parse().unwrap())
        );
        assert_eq!(
            strength("AD".parse().unwrap()),
            strength("AC".parse().unwrap())
        );
    }

    #[test]
    fn hand_result_follows_the_tie_rules() {
        let (ns, ew) = (Some(Side::NS), Some(Side::EW));
        assert_eq!(hand_result(&[ns]), None);
        assert_eq!(hand_result(&[ns, ns]), Some(ns));
        assert_eq!(hand_result(&[ns, ew]), None);
        assert_eq!(hand_result(&[ns, None]), Some(ns));
        assert_eq!(hand_result(&[ns, ew, None]), Some(ns));
        assert_eq!(hand_result(&[ns, ew, ew]), Some(ew));
        assert_eq!(hand_result(&[None, ew]), Some(ew));
        assert_eq!(hand_result(&[None, None]), None);
        assert_eq!(hand_result(&[None, None, ns]), Some(ns));
        assert_eq!(hand_result(&[None, None, None]), Some(None));
    }

    #[test]
    fn the_ladder_climbs_to_queda() {
        assert_eq!(next_step(1), 3);
        assert_eq!(next_step(3), 6);
        assert_eq!(next_step(9), 12);
        assert_eq!(step_name(next_step(6)), "nine");
    }
}
