//! Court Piece (Rang) (`docs/rules/court-piece.md`): four players in partnerships, 52 cards, A
//! high; the dealer's left names trump after seeing his first five cards and leads; follow suit. A
//! side scores a court by taking the first seven tricks (52 if it plays on and takes all thirteen),
//! when the opponents revoke (the hand ends at once), or by winning seven hands in a row. The deal
//! goes to the losing side; the match lasts as long as the players agree.

use crate::cards::{Card, Suit, SuitedSet, packs};
use crate::details;
use crate::engine;
use crate::engine::deal::{HandSize, Setup};
use crate::engine::{
    Adjudication, Bonus, BonusStatus, Decides, Effect, Established, Event, Fault, FieldError,
    GameInfo, HandState, IgnoredAction, Irregularity, Locus, MatchState, NoDetails, OptionKind,
    OptionSpec, Options, RankOrder, RecordError, Rules, Seat, Side, Table, TableView, Trick,
    TrickPlay, deal, must_follow_suit,
};
use crate::record::{Action, HandRecord, Verbs};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub struct CourtPiece;

crate::verbs! {
    /// What a record of Court Piece can say.
    #[derive(Copy)]
    pub enum Verb in "Court Piece" {
        Trump(Suit) = "trump": "The trump maker names trump after seeing his first five cards.",
        Play(Card) = "play": "A card played to the current trick.",
        Correct(Card) = "correct": "Replaces the seat's card in the current, incomplete trick (a revoke correction).",
        PlayOn(bool) = "play_on": "The side that took the first seven tricks plays on for all thirteen (`true`) or ends the hand (`false`).",
        ClaimRevoke(Seat) = "claim_revoke": "A claim that the named seat revoked: discovers that seat's established revokes not yet discovered.",
    }
}

static INFO: GameInfo = GameInfo {
    id: "court-piece",
    name: "Court Piece (Rang)",
    tables: crate::engine::Tables(&[Table::FOUR]),
    deck: "52-card pack",
    // §4.4: no target score; the match lasts an agreed number of hands (`match_hands`).
    game_target: 0,
    options: &[
        OptionSpec {
            name: "any_court_resets_streak",
            kind: OptionKind::Flag { default: false },
            description: "A hand in which the winners score any court (first seven, all thirteen, revoke) \
                          leaves their streak at 0 (the rulings: only the streak court resets it).",
            rule: "court-piece.md §6 CP-2",
        },
        OptionSpec {
            name: "courts_52_plus_1",
            kind: OptionKind::Flag { default: false },
            description: "Taking all thirteen tricks after playing on scores 52 courts on top of the \
                          first-seven court, 53 in all (the rulings: 52 replaces it).",
            rule: "court-piece.md §6 CP-3",
        },
        OptionSpec {
            name: "discovery",
            kind: OptionKind::Choice {
                values: &["end_of_trick", "recorded_claim_only"],
                default: "end_of_trick",
            },
            description: "`end_of_trick`: an established revoke is discovered when its trick is complete \
                          and ends the hand there; `recorded_claim_only`: only a recorded `claim_revoke` \
                          discovers it (an unclaimed revoke carries no penalty).",
            rule: "court-piece.md §6 CP-4",
        },
        OptionSpec {
            name: "match_hands",
            kind: OptionKind::Count {
                min: 0,
                max: 10_000,
                default: 0,
            },
            description: "The agreed length of the match in hands: after that many hands the match is \
                          over and the side with more courts wins (equal: a draw). 0: not agreed, the \
                          match never ends by itself.",
            rule: "court-piece.md §4.4, §6 CP-6",
        },
    ],
    rules: "docs/rules/court-piece.md",
    irregularities: &["revoke"],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    record_errors: &[
        "out_of_turn",
        "unexpected_action",
        "card_not_held",
        "card_played_twice",
        "invalid_correct",
        "action_after_end",
        "incomplete_hand",
    ],
    events: &["first_seven", "play_on", "hand_abandoned", "play_on_failed"],
    score_codes: &[FIRST_SEVEN_COURT, ALL_THIRTEEN, STREAK],
    titles: crate::engine::Titles(&[
        ("first_seven", "First seven tricks taken by one side"),
        ("play_on", "Play on after a court"),
        ("hand_abandoned", "Hand abandoned"),
        ("play_on_failed", "Play on failed"),
        (FIRST_SEVEN_COURT, "Court: the first seven tricks"),
        (ALL_THIRTEEN, "All thirteen tricks"),
        (STREAK, "Streak of hands won"),
    ]),
};

/// §4.1: the court for taking each of the first seven tricks.
const FIRST_SEVEN_COURT: &str = "first_seven";
/// §4.1: the 52 courts for all thirteen tricks after playing on.
const ALL_THIRTEEN: &str = "all_thirteen";
/// §4.2: the court for the seventh hand won in a row.
const STREAK: &str = "streak";

/// What Court Piece carries from hand to hand besides the scores.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = CourtPieceCarried)]
pub struct Carried {
    /// Consecutive hands won by one side (§4.2's seven-hand streak); `null` before the first hand.
    #[serde(default)]
    pub streak: Option<Streak>,
}

/// A run of consecutive hands won by one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Streak {
    pub side: Side,
    /// Hands in the run still counting towards the next streak reward.
    pub count: u32,
}

const TRICKS: usize = 13;
/// §1: the trump maker names trump after seeing this many of his cards.
const FIRST_PACKET: usize = 5;
/// §4.1: a side winning each of the first seven tricks scores a court.
const FIRST_SEVEN: usize = 7;
/// §4.1: all thirteen after playing on.
const ALL_THIRTEEN_COURTS: i32 = 52;
/// §4.2: seven hands in a row score a court.
const STREAK_COURT_AT: u32 = 7;

/// §1: A high.
const ORDER: RankOrder = RankOrder::ACE_HIGH;

/// §3: follow suit if able; otherwise any card (trumping allowed, not compulsory).
fn judge(trick: &Trick, hand: SuitedSet, card: Card) -> Option<Fault> {
    must_follow_suit(Table::FOUR, "court-piece.md §3", trick, hand, card)
}

impl Rules for CourtPiece {
    type Verb = Verb;
    type Details = NoDetails;
    type Carried = Carried;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    /// §4.3, CP-1: the deal passes left when the dealer's side wins the hand, to the dealer's
    /// partner when a court is scored against it, and stays when the hand scores nothing.
    fn rotation(&self, _: &Options) -> engine::Rotation {
        engine::Rotation::ByResult("court-piece.md §4.3, CP-1")
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
        let dealt = deal::check_holdings::<SuitedSet, _>(record, Table::FOUR, &pack)?;
        deal::check_whole_pack(&dealt, &pack)?;
        let mut errors = Vec::new();
        let carried: Carried = details::read(&before.details, "/match_state")?;
        if let Some(streak) = carried.streak {
            if !Side::BOTH.contains(&streak.side) {
                errors.push(FieldError::new(
                    "/match_state/streak/side".into(),
                    "the streak belongs to NS or EW".into(),
                ));
            }
            if streak.count >= STREAK_COURT_AT {
                errors.push(FieldError::new(
                    "/match_state/streak/count".into(),
                    format!(
                        "a streak of {STREAK_COURT_AT} scores its court and restarts at 0 (§4.2): expected 0 to {}",
                        STREAK_COURT_AT - 1
                    ),
                ));
            }
        }
        let match_hands = options.count("match_hands");
        if match_hands > 0 && before.hands_played >= match_hands {
            errors.push(FieldError::new(
                "/match_state/hands_played".into(),
                format!("the agreed match of {match_hands} hands is already complete"),
            ));
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        // The engine hands over the dealer as the table names him; the deal keeps its keys.
        let dealer = record.dealer;
        let maker = Table::FOUR.left(dealer);
        // §1: the first five cards listed for each seat are the packet dealt before trump.
        let mut first_packets = [[Card::JOKER; FIRST_PACKET]; 4];
        for (seat, cards) in &record.deal {
            let at = Table::FOUR
                .resolve(*seat)
                .expect("checked by check_holdings");
            first_packets[at.pos()].copy_from_slice(&cards[..FIRST_PACKET]);
        }
        // The box first, the hand written into it: the hand is large, and built then boxed it was
        // copied whole once more (the copy showed in `start`'s profile).
        let hand: Box<Hand> = Box::write(
            Box::new_uninit(),
            Hand {
                maker,
                first_packets,
                // §1: the trump maker leads.
                play: TrickPlay::new(Table::FOUR, dealt.hands, maker),
                phase: Phase::Trump,
                first_seven: None,
                playing_on: false,
                revokes: Vec::new(),
                forfeit: None,
                early_claims: Vec::new(),
                streak: carried.streak,
                rules: Variants {
                    claim_only: options.choice("discovery") == "recorded_claim_only",
                    any_court_resets_streak: options.flag("any_court_resets_streak"),
                    courts_52_plus_1: options.flag("courts_52_plus_1"),
                    match_hands,
                },
                adj: Adjudication::new(INFO.id, dealer, before, TRICKS),
            },
        );
        Ok(hand)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// §2.2: the trump maker names trump before the first lead.
    Trump,
    Play,
    /// §2.4: the side that took the first seven tricks decides whether to play on.
    PlayOn(Side),
    Over(Ending),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    /// All thirteen tricks played.
    Complete,
    /// §4.1: the first-seven side did not play on (declined, or no decision: CP-c).
    Abandoned,
    /// The side playing on lost a trick: nothing is left to play for.
    PlayOnFailed(u8),
    /// §4.1/§5: an established revoke was discovered.
    Forfeited,
}

/// How an established revoke came to light.
#[derive(Clone, Copy, Debug)]
enum Discovery {
    EndOfTrick,
    /// The `claim_revoke` at this action.
    Claim(usize),
    /// The `claim_revoke` at this action, made while the trick was still incomplete (§3: "unless
    /// the record shows an earlier claim"); the revoke was discovered when it became established.
    EarlyClaim(usize),
}

#[derive(Clone)]
struct Revoke {
    at: Established,
    discovered: Option<Discovery>,
}

/// The club's choices among the rule file's variants, from the options.
#[derive(Clone, Copy, Debug)]
struct Variants {
    claim_only: bool,
    any_court_resets_streak: bool,
    courts_52_plus_1: bool,
    match_hands: u32,
}

#[derive(Clone)]
struct Hand {
    maker: Seat,
    /// Each seat's first five cards, by seat position: all it holds while trump is named (the
    /// trump maker's are all he sees). Kept as dealt, made a set only for a view of the trump
    /// phase: every hand starts here, and making the four sets showed in `start`'s profile.
    first_packets: [[Card; FIRST_PACKET]; 4],
    /// A suited pack: hands are 64-bit sets, and every card is checked against them.
    play: TrickPlay<SuitedSet>,
    phase: Phase,
    first_seven: Option<Side>,
    playing_on: bool,
    /// Established revokes in the order they were established.
    revokes: Vec<Revoke>,
    /// The revoke (index in `revokes`) whose discovery forfeited the hand.
    forfeit: Option<usize>,
    /// Claims (action index, accused seat) made during the trick in progress against a card that may
    /// still be corrected: they discover the accused's revoke if it becomes established (§3).
    early_claims: Vec<(usize, Seat)>,
    /// The streak the match state carried into the hand (§4.2), as `start` read it: `score` needs
    /// it, and reading the match state's details again showed in the replay profile.
    streak: Option<Streak>,
    rules: Variants,
    adj: Adjudication,
}

impl Hand {
    fn tricks_of(&self, side: Side) -> usize {
        self.adj.tally[side].tricks as usize
    }

    fn end(&mut self, ending: Ending) {
        self.phase = Phase::Over(ending);
        self.play.stop();
    }

    /// The revokes the trick just closed `established`, and the claims made while it was in
    /// progress (§3): whether a revoke discovered now forfeited the hand. Out of line: revokes and
    /// claims are rare, and every trick closes.
    #[cold]
    fn discover(&mut self, established: Vec<Established>) -> bool {
        let first_new = self.revokes.len();
        self.revokes
            .extend(established.into_iter().map(|at| Revoke {
                at,
                discovered: None,
            }));
        // §3: a claim made before the trick was complete discovers the accused's revoke once it is
        // established; if it was corrected meanwhile, the claim lapses.
        for (index, accused) in std::mem::take(&mut self.early_claims) {
            let claimed: Vec<usize> = (first_new..self.revokes.len())
                .filter(|&i| self.revokes[i].at.seat == accused)
                .collect();
            if claimed.is_empty() {
                let n = self.adj.tricks.len();
                self.ignore(
                    index,
                    format!("the claim against {accused} lapses: {accused} has no revoke established in trick {n} (a revoke corrected before the trick was complete carries no penalty, §3)"),
                );
            }
            for i in claimed {
                self.revokes[i].discovered = Some(Discovery::EarlyClaim(index));
            }
        }
        // CP-4: by default an established revoke is discovered at the end of its trick; CP-b: it
        // ends the hand before the first-seven rule is looked at.
        if !self.rules.claim_only {
            for r in &mut self.revokes[first_new..] {
                r.discovered.get_or_insert(Discovery::EndOfTrick);
            }
        }
        // README C7: the earliest discovered revoke of the trick decides.
        if let Some(first) =
            (first_new..self.revokes.len()).find(|&i| self.revokes[i].discovered.is_some())
        {
            self.forfeit = Some(first);
            self.end(Ending::Forfeited);
            return true;
        }
        false
    }

    /// The seat whose card wins the complete trick on the table: §3, the highest trump, else the
    /// highest card of the suit led. The usual rule (`Trick::trump_or_led_winner`) for a trick of
    /// exactly four cards of the 52-card pack, where A is high as the ranks are numbered: it
    /// checks for short tricks and cards without a suit, which showed in `close_trick`'s profile.
    #[inline]
    fn trick_winner(&self) -> Seat {
        let trick = &self.play.trick;
        let &[a, b, c, d] = trick.plays() else {
            unreachable!("a complete trick of four cards")
        };
        let trump = self
            .adj
            .trump
            .expect("trump is named before the first lead");
        let led = a.card.suit_unchecked();
        // Above every other card a trump, then a card of the suit led, each by rank; no two cards
        // of those suits are equal, and the lead always outranks a card of neither. What a suit
        // adds is looked up: two comparisons per card showed in `close_trick`'s profile.
        let mut above = [0u8; 4];
        above[led as usize] = 1 << 4;
        above[trump as usize] |= 1 << 5;
        let rank = |card: Card| above[card.suit_unchecked() as usize] | card.index() & 15;
        let (ka, kb, kc, kd) = (rank(a.card), rank(b.card), rank(c.card), rank(d.card));
        let (first, kf) = if kb > ka { (b.seat, kb) } else { (a.seat, ka) };
        let (second, ks) = if kd > kc { (d.seat, kd) } else { (c.seat, kc) };
        let winner = if ks > kf { second } else { first };
        debug_assert_eq!(
            Some(winner),
            trick.trump_or_led_winner(self.adj.trump, &ORDER)
        );
        winner
    }

    fn close_trick(&mut self) {
        let winner = self.trick_winner();
        let established = self.play.close_trick_reported(winner, &mut self.adj.tricks);
        let side = Table::FOUR.side(winner);
        self.adj.tally[side].tricks += 1;
        // Nearly every trick establishes no revoke and answers no claim: nothing to look at.
        if (!established.is_empty() || !self.early_claims.is_empty()) && self.discover(established)
        {
            return;
        }
        let n = self.adj.tricks.len();
        if self.playing_on && Some(side) != self.first_seven {
            self.play_on_failed(side, n);
        } else if n == TRICKS {
            self.end(Ending::Complete);
        } else if n == FIRST_SEVEN && self.tricks_of(side) == FIRST_SEVEN {
            // Seven tricks of seven: the side that took the seventh took them all.
            self.took_first_seven(side);
        }
    }

    /// The action that completed the trick last closed.
    fn last_trick_closed_at(&self) -> usize {
        let trick = &self.adj.tricks.last().expect("a trick closed").plays;
        trick.action_index(trick.len() - 1)
    }

    /// §4.1: the side playing on for all thirteen lost trick `n` (taken by `winner`): the hand
    /// ends. Out of line, as `close_trick` is asked at every trick.
    #[cold]
    fn play_on_failed(&mut self, winner: Side, n: usize) {
        let side = self.first_seven.expect("playing on after the first seven");
        let detail = format!(
            "{} took trick {n}: {} cannot take all thirteen and keep their one court; the hand ends",
            winner.spoken(),
            side.spoken()
        );
        let event = Event::new(
            "play_on_failed",
            self.last_trick_closed_at(),
            None,
            Vec::new(),
            detail,
        );
        self.adj.events.push(event.for_side(side));
        self.end(Ending::PlayOnFailed(n as u8));
    }

    /// §4.1: `side` took each of the first seven tricks: its court, and the choice to play on.
    /// Out of line, as `close_trick` is asked at every trick.
    #[cold]
    fn took_first_seven(&mut self, side: Side) {
        self.first_seven = Some(side);
        self.phase = Phase::PlayOn(side);
        let detail = format!(
            "{} took each of the first seven tricks: one court; they may play on for all thirteen (§4.1)",
            side.spoken()
        );
        let event = Event::new(
            "first_seven",
            self.last_trick_closed_at(),
            None,
            Vec::new(),
            detail,
        );
        self.adj.events.push(event.for_side(side));
    }

    /// A `claim_revoke` by `seat` naming `accused`: discovers that seat's established revokes.
    fn claim(&mut self, index: usize, seat: Seat, accused: Seat) {
        let found: Vec<usize> = (0..self.revokes.len())
            .filter(|&i| self.revokes[i].at.seat == accused && self.revokes[i].discovered.is_none())
            .collect();
        let Some(&first) = found.first() else {
            // §3: a claim against a card of the trick in progress that may still be corrected waits
            // for the end of the trick ("unless the record shows an earlier claim").
            if self.pending_revokers().contains(&accused) {
                self.early_claims.push((index, accused));
                return;
            }
            self.ignore(
                index,
                format!(
                    "{seat}'s claim is rejected: {accused} has no established revoke left to discover"
                ),
            );
            return;
        };
        for i in found {
            self.revokes[i].discovered = Some(Discovery::Claim(index));
        }
        self.forfeit = Some(first);
        self.end(Ending::Forfeited);
    }

    /// Seats whose card in the trick in progress is a revoke that may still be corrected (§3).
    fn pending_revokers(&self) -> Vec<Seat> {
        if self.phase != Phase::Play {
            return Vec::new();
        }
        self.play
            .correctable()
            .into_iter()
            .filter_map(|(seat, before)| {
                let card = self.play.trick.plays()[before.len()].card;
                judge(&before, self.play.hand(seat), card).map(|_| seat)
            })
            .collect()
    }

    fn ignore(&mut self, index: usize, reason: String) {
        // An early claim is settled at the end of its trick, after later actions may have been
        // ignored: keep the list in action order.
        let at = self
            .adj
            .ignored_actions
            .partition_point(|a| a.action_index < index);
        self.adj.ignored_actions.insert(
            at,
            IgnoredAction {
                action_index: index,
                reason: reason.into(),
            },
        );
    }

    /// Why actions after the end of the hand are ignored, or `None` when they are record errors.
    fn ignored_after_end(&self) -> Option<String> {
        match self.phase {
            Phase::Over(Ending::Forfeited) => {
                let at = self.revokes[self.forfeit?].at.action_index;
                Some(format!(
                    "the hand was forfeited for the revoke at action {at}: later actions are ignored (court-piece.md §7 CP-d, README C6)"
                ))
            }
            Phase::Over(Ending::Abandoned) => Some(
                "the hand ended after the first seven tricks without play-on: later plays are ignored (court-piece.md §7 CP-e)"
                    .into(),
            ),
            Phase::Over(Ending::PlayOnFailed(n)) => Some(format!(
                "the play-on failed in trick {n} and the hand ended: later plays are ignored (court-piece.md §7 CP-f, README C6)"
            )),
            _ => None,
        }
    }

    /// §4.1: the first-seven side declines to play on, at action `index`.
    fn decline(&mut self, seat: Seat, side: Side, index: usize) {
        let detail = format!(
            "{} chose not to play on: the hand ends with their one court",
            side.spoken()
        );
        self.adj
            .events
            .push(Event::new("hand_abandoned", index, seat, Vec::new(), detail).for_side(side));
        self.end(Ending::Abandoned);
    }

    /// CP-c: no play-on decision is recorded for the first-seven side (a later action, or the end
    /// of the record): the hand is abandoned with their one court.
    fn undecided(adj: &mut Adjudication, side: Side) {
        let detail = format!(
            "no play-on decision was recorded for {}: the hand is abandoned with their one court (CP-c)",
            side.spoken()
        );
        adj.events
            .push(Event::new("hand_abandoned", None, None, Vec::new(), detail).for_side(side));
    }

    /// §3: a card played to the trick, judged; the trick closed when it is the fourth. A revoke
    /// goes out of line (`play_revoke`): a card known to break no rule passes no fault to the
    /// trick play, so its check is folded away rather than made through memory at every card.
    #[inline(always)]
    fn play_card(&mut self, index: usize, seat: Seat, card: Card) -> Result<(), RecordError> {
        if let Some(fault) = judge(&self.play.trick, self.play.hand(seat), card) {
            return self.play_revoke(index, seat, card, fault);
        }
        self.play.play(index, seat, card, None)?;
        if self.play.is_complete() {
            self.close_trick();
        }
        Ok(())
    }

    /// `play_card` for a card that revokes (§3): rare.
    #[cold]
    #[inline(never)]
    fn play_revoke(
        &mut self,
        index: usize,
        seat: Seat,
        card: Card,
        fault: Fault,
    ) -> Result<(), RecordError> {
        self.play.play(index, seat, card, Some(fault))?;
        if self.play.is_complete() {
            self.close_trick();
        }
        Ok(())
    }

    /// Every action but a card played in `Phase::Play` (`HandState::apply`).
    #[inline(never)]
    fn apply_other(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        let verb = action.kind.verb();
        let error = |code, detail: String| RecordError::at(code, index, seat, verb, detail);
        // Only an ended hand ignores actions: the reason is not asked of every card.
        if matches!(self.phase, Phase::Over(_))
            && let Some(reason) = self.ignored_after_end()
            && (self.phase == Phase::Over(Ending::Forfeited)
                || !matches!(action.kind, Verb::ClaimRevoke(_)))
        {
            self.ignore(index, reason);
            return Ok(());
        }
        match (self.phase, action.kind) {
            // A revoke may be claimed until the record ends, unless the hand is already forfeited.
            (_, Verb::ClaimRevoke(accused)) => {
                self.claim(index, seat, accused);
                Ok(())
            }
            (Phase::Trump, Verb::Trump(suit)) if seat == self.maker => {
                self.adj.trump = Some(suit);
                self.phase = Phase::Play;
                Ok(())
            }
            // README C11: no card is on the table, so nobody is entitled to correct.
            (Phase::Trump, Verb::Correct(_)) => {
                Err(RecordError::correct_before_play(index, action))
            }
            // README C12: the seat is checked before the verb.
            (Phase::Trump, _) if seat != self.maker => Err(error(
                "out_of_turn",
                format!(
                    "only the trump maker {} (the dealer's left) names trump (§1), and nothing comes before it",
                    self.maker
                ),
            )),
            (Phase::Trump, _) => Err(error(
                "unexpected_action",
                format!(
                    "the trump maker {} must name trump before the first lead (§2)",
                    self.maker
                ),
            )),
            (Phase::Play, Verb::Play(card)) => self.play_card(index, seat, card),
            (Phase::Play, Verb::Correct(card)) => self.play.correct(index, seat, card, judge),
            (Phase::Play, _) if self.play.to_play().is_some_and(|due| due != seat) => Err(error(
                "out_of_turn",
                format!(
                    "{} is due to play to trick {}, not {seat}",
                    self.play.to_play().expect("checked"),
                    self.play.trick.number
                ),
            )),
            (Phase::Play, _) => Err(error(
                "unexpected_action",
                "a card is due to the trick".into(),
            )),
            (Phase::PlayOn(side), Verb::PlayOn(on)) if Table::FOUR.side(seat) == side => {
                if on {
                    self.playing_on = true;
                    self.phase = Phase::Play;
                    self.adj.events.push(
                        Event::new(
                            "play_on",
                            index,
                            seat,
                            Vec::new(),
                            format!("{} play on for all thirteen tricks (§4.1)", side.spoken()),
                        )
                        .for_side(side),
                    );
                } else {
                    self.decline(seat, side, index);
                }
                Ok(())
            }
            (Phase::PlayOn(side), Verb::PlayOn(_)) => Err(error(
                "out_of_turn",
                format!(
                    "only {}, who took the first seven tricks, decide whether to play on",
                    side.spoken()
                ),
            )),
            (Phase::PlayOn(side), _) => {
                // CP-c, CP-e: no decision recorded: the hand is abandoned and this action ignored.
                Hand::undecided(&mut self.adj, side);
                self.end(Ending::Abandoned);
                let reason = self.ignored_after_end().expect("abandoned");
                self.ignore(index, reason);
                Ok(())
            }
            (Phase::Over(_), _) => Err(RecordError::after_end(
                index,
                action,
                "all thirteen tricks have been played",
            )),
        }
    }

    fn irregularities(&self) -> Vec<Irregularity> {
        self.revokes
            .iter()
            .enumerate()
            .map(|(i, r)| Irregularity {
                code: r.at.fault.code,
                action_index: Some(r.at.action_index),
                trick: Some(r.at.trick),
                seat: r.at.seat,
                card: Some(r.at.card),
                rule: r.at.fault.rule,
                explanation: r.at.fault.explanation.clone(),
                consequence: self.consequence(i, r),
                // §5: the forfeit fixes the hand's result (README C9); its court is scored in
                // `score`.
                effect: Effect {
                    decides: (self.forfeit == Some(i)).then_some(Decides::Hand),
                    ..Effect::default()
                },
            })
            .collect()
    }

    fn consequence(&self, i: usize, r: &Revoke) -> String {
        let side = Table::FOUR.side(r.at.seat);
        match (self.forfeit, r.discovered) {
            (Some(f), Some(how)) if f == i => {
                let how = match how {
                    Discovery::EndOfTrick => format!("discovered at the end of trick {}", r.at.trick),
                    Discovery::Claim(at) => format!("discovered by the claim at action {at}"),
                    Discovery::EarlyClaim(at) => format!(
                        "claimed at action {at} before trick {} was complete, discovered when it was established then",
                        r.at.trick
                    ),
                };
                format!(
                    "{how}: {} forfeit the hand, which ends at once; {} score 1 court and no other court of the hand stands (court-piece.md §4.1, §5, CP-5)",
                    side.spoken(),
                    side.other().spoken()
                )
            }
            (Some(f), _) => format!(
                "no further effect: the hand was already forfeited for the revoke at action {} (README C7)",
                self.revokes[f].at.action_index
            ),
            (None, _) => "never claimed, so never discovered: no penalty (court-piece.md §6 CP-4, discovery = recorded_claim_only)".into(),
        }
    }
}

/// §4: the hand's courts, the streak and the next dealer.
fn score(
    adj: &mut Adjudication,
    phase: Phase,
    first_seven: Option<Side>,
    forfeit: Option<(usize, Seat)>,
    streak: Option<Streak>,
    rules: Variants,
) {
    let dealer = adj.dealer;
    let court = |code, side, points, status| Bonus {
        code,
        side,
        card: None,
        points,
        status,
    };
    if let Phase::PlayOn(side) = phase {
        Hand::undecided(adj, side);
    }
    let winner = if let Some((f, revoker)) = forfeit {
        // §5, CP-5: one court to the non-revoking side, whatever happened before.
        let winner = Table::FOUR.side(revoker).other();
        if let Some(side) = first_seven {
            adj.bonus(court(FIRST_SEVEN_COURT, side, 1, BonusStatus::NotScored));
        }
        // `irregularities` lists the revokes in the same order.
        adj.penalize(f, winner, 1);
        winner
    } else if let Some(side) = first_seven {
        if phase == Phase::Over(Ending::Complete) {
            // CP-3: 52 replace the first-seven court, or are added to it.
            let kept = if rules.courts_52_plus_1 {
                BonusStatus::Scored
            } else {
                BonusStatus::NotScored
            };
            adj.bonus(court(FIRST_SEVEN_COURT, side, 1, kept));
            adj.bonus(court(
                ALL_THIRTEEN,
                side,
                ALL_THIRTEEN_COURTS,
                BonusStatus::Scored,
            ));
        } else {
            adj.bonus(court(FIRST_SEVEN_COURT, side, 1, BonusStatus::Scored));
        }
        side
    } else if adj.tally[Side::NS].tricks > adj.tally[Side::EW].tricks {
        Side::NS
    } else {
        Side::EW
    };
    adj.hand_winner = Some(winner);
    // Every court of the hand so far is the winner's (first seven, all thirteen, forfeit).
    let hand_courts = !adj.score_items.is_empty();
    // §4.2: the streak counts every won hand; its seventh scores a court and restarts it at 0.
    let mut count = match streak {
        Some(s) if s.side == winner => s.count + 1,
        _ => 1,
    };
    if count == STREAK_COURT_AT {
        adj.bonus(court(STREAK, winner, 1, BonusStatus::Scored));
        count = 0;
    }
    if rules.any_court_resets_streak && hand_courts {
        count = 0;
    }
    let score = adj.settle();
    // §4.3, CP-1.
    let next_dealer = if winner == Table::FOUR.side(dealer) {
        Table::FOUR.left(dealer)
    } else if score[winner] == 0 {
        dealer
    } else {
        Table::FOUR.left(Table::FOUR.left(dealer))
    };
    let m = &mut adj.match_after;
    m.details = details::Details::of(Carried {
        streak: Some(Streak {
            side: winner,
            count,
        }),
    });
    m.next_dealer = Some(next_dealer);
    // §4.4: most courts wins the agreed match; equal is a draw.
    if rules.match_hands > 0 && m.hands_played >= rules.match_hands {
        m.highest_wins();
    }
}

/// An event of the hand: each belongs to a side (the first-seven side's court, its play-on), and
/// to the seat that decided where one did. The replay driver states its trick.
impl HandState<Verb> for Hand {
    /// Nearly every action is a card played to a trick: it is checked here, every other action
    /// out of line (`apply_other`), so that a card does not pay for the frame of the rest. Always
    /// inlined: into the replay of a whole hand (`HandState::replay`), its loop over the cards.
    #[inline(always)]
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        if let (Phase::Play, Verb::Play(card)) = (self.phase, action.kind) {
            return self.play_card(index, action.seat, card);
        }
        self.apply_other(index, action)
    }

    fn view(&self) -> TableView {
        let (phase, to_act) = match self.phase {
            Phase::Trump => ("trump", vec![self.maker]),
            Phase::Play => ("play", self.play.to_play().into_iter().collect()),
            Phase::PlayOn(side) => ("play_on", Table::FOUR.members(side).collect()),
            Phase::Over(_) => ("over", vec![]),
        };
        let mut view = TableView::new(phase, to_act, &self.play, &self.adj.match_after);
        view.trump = self.adj.trump;
        view.tally = self.adj.tally.clone();
        view.irregularities = self.irregularities();
        if self.phase == Phase::Trump {
            // §1: only the first packet has been dealt when trump is named.
            view.set_hands(Table::FOUR.seats().map(|s| {
                (
                    s,
                    SuitedSet::of(&self.first_packets[s.pos()]).iter().collect(),
                )
            }));
        }
        view
    }

    fn locus(&self) -> Locus {
        let over = match self.phase {
            Phase::Trump | Phase::PlayOn(_) => false,
            Phase::Play => self.play.to_play().is_none(),
            Phase::Over(_) => true,
        };
        Locus::of_play(&self.play, over)
    }

    /// The phase's choices (trump, cards, play on) and, until a forfeit, a revoke claim by any seat
    /// against any seat: §3 lets one be made once a revoke is established, or already while its
    /// trick is in progress; the judge rejects a claim against a seat with no such revoke.
    fn candidates(&self) -> Vec<Action<Verb>> {
        if self.forfeit.is_some() {
            return Vec::new();
        }
        let mut out: Vec<Action<Verb>> = match self.phase {
            Phase::Trump => Suit::ALL
                .into_iter()
                .map(|suit| Action {
                    seat: self.maker,
                    kind: Verb::Trump(suit),
                })
                .collect(),
            Phase::Play => self.play.candidates(Verb::Play, Verb::Correct),
            Phase::PlayOn(side) => Table::FOUR
                .members(side)
                .flat_map(|seat| {
                    [true, false].map(|on| Action {
                        seat,
                        kind: Verb::PlayOn(on),
                    })
                })
                .collect(),
            Phase::Over(_) => Vec::new(),
        };
        for accused in Table::FOUR.seats() {
            out.extend(Table::FOUR.seats().map(|seat| Action {
                seat,
                kind: Verb::ClaimRevoke(accused),
            }));
        }
        out
    }

    /// A revoke pending correction, or one established when its trick closed at this action.
    fn faulted(&self, index: usize) -> bool {
        self.play.faulted(index) || self.revokes.iter().any(|r| r.at.action_index == index)
    }

    fn ignored(&self, index: usize) -> bool {
        self.adj.ignored(index)
    }

    fn finish(mut self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        for (index, accused) in std::mem::take(&mut self.early_claims) {
            self.ignore(
                index,
                format!("the claim against {accused} was never settled: the trick it was made in was not completed"),
            );
        }
        self.adj.corrected_revokes = std::mem::take(&mut self.play.corrected);
        self.adj.irregularities = self.irregularities();
        let ending = match self.phase {
            Phase::Trump => engine::Ending::Open {
                due: Some(self.maker),
                detail: format!("the record stops before {} names trump", self.maker),
            },
            Phase::Play => engine::Ending::Open {
                due: self.play.to_play(),
                detail: format!(
                    "the record stops in trick {} of {TRICKS} with the hand undecided",
                    self.play.trick.number
                ),
            },
            // CP-c: with no play-on decision recorded the hand is abandoned (in `score`).
            Phase::PlayOn(_) | Phase::Over(_) => engine::Ending::Over,
        };
        let forfeit = self.forfeit.map(|f| (f, self.revokes[f].at.seat));
        let (phase, first_seven, streak, rules) =
            (self.phase, self.first_seven, self.streak, self.rules);
        self.adj.conclude(error, ending, |adj| {
            score(adj, phase, first_seven, forfeit, streak, rules)
        });
        self.adj
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn revoke_only_when_holding_the_led_suit() {
        let mut t = Trick::new(1, Seat::N);
        t.push(Seat::N, c("5H"), 0);
        let hand = SuitedSet::of(&[c("2H"), c("AS")]);
        let f = judge(&t, hand, c("AS")).expect("E holds a heart");
        assert_eq!(f.code, "revoke");
        assert!(
            f.explanation.starts_with("E played AS"),
            "{}",
            f.explanation
        );
        assert!(judge(&t, hand, c("2H")).is_none());
        assert!(judge(&t, SuitedSet::of(&[c("AS"), c("2C")]), c("2C")).is_none());
        assert!(
            judge(&Trick::new(1, Seat::N), hand, c("AS")).is_none(),
            "any lead"
        );
    }
}
