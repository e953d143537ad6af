//! Malilla (`docs/rules/malilla.md`): four players in partnerships, a 40-card pack, the dealer's
//! last card fixes trumps, 7 highest; follow suit, the forbidden seven, must beat an opponent; one
//! point per trick on top of the card points (70 a hand); the side over 35 scores the excess; game
//! to 35; any incorrect play loses the game at once.

use crate::cards::{Card, Pack, Rank, Suit, SuitedSet, packs};
use crate::engine::deal::{Count, HandSize, Holds, Part, Setup};
use crate::engine::{
    Adjudication, Beaters, Bonus, BonusStatus, Decides, Effect, Ending, Established, Fault,
    FieldError, GameInfo, HandState, IgnoredAction, Irregularity, Locus, MatchState, NoDetails,
    OptionKind, OptionSpec, Options, Outcome, PlayedCard, RankOrder, RecordError, Rules,
    ScoreSource, Seat, Side, Table, TableView, Trick, TrickPlay, Winning, deal,
};
use crate::record::{Action, HandRecord};

pub struct Malilla;

crate::verbs! {
    /// What a record of Malilla can say.
    #[derive(Copy)]
    pub enum Verb in "Malilla" {
        Play(Card) = "play": "A card played to the current trick.",
        Correct(Card) = "correct": "Replaces the seat's card in the current, incomplete trick (a revoke correction).",
    }
}

static INFO: GameInfo = GameInfo {
    id: "malilla",
    name: "Malilla",
    tables: crate::engine::Tables(&[Table::FOUR]),
    deck: "40-card pack (A K Q J 7 6 5 4 3 2)",
    game_target: GAME,
    options: &[OptionSpec {
        name: "allow_correction_before_trick_end",
        kind: OptionKind::Flag { default: false },
        description: "A `correct` before the trick is complete cancels an incorrect play without penalty \
                      (the rules' default: the foul stands once the card is played).",
        rule: "malilla.md §6 MA-8",
    }],
    rules: "docs/rules/malilla.md",
    irregularities: &["revoke", "illegal_seven", "failed_to_overtake", "misdeal"],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    record_errors: &[
        "out_of_turn",
        "card_not_held",
        "card_played_twice",
        "invalid_correct",
        "action_after_end",
        "incomplete_hand",
    ],
    events: &[],
    score_codes: &["hand_result", "trump_card"],
    titles: crate::engine::Titles(&[
        (
            "illegal_seven",
            "Forbidden seven: a seven of a suit not yet led played when not following suit",
        ),
        ("failed_to_overtake", "Did not head the trick when able"),
        ("hand_result", "Hand result: points over 35"),
        ("trump_card", "Trump card bonus"),
    ]),
};

/// §1: in every suit 7 A K Q J 6 5 4 3 2, the 7 highest.
const ORDER: RankOrder = RankOrder::new(&[
    Rank::Seven,
    Rank::Ace,
    Rank::King,
    Rank::Queen,
    Rank::Jack,
    Rank::Six,
    Rank::Five,
    Rank::Four,
    Rank::Three,
    Rank::Two,
]);
/// The cards that beat a winning card under each trump (by `Suit as usize`): rule 3 asks them at
/// every card.
static BEATERS: [Beaters; 4] = [
    Beaters::new(Some(Suit::Spades), &ORDER),
    Beaters::new(Some(Suit::Hearts), &ORDER),
    Beaters::new(Some(Suit::Diamonds), &ORDER),
    Beaters::new(Some(Suit::Clubs), &ORDER),
];
const TRICKS: u8 = 10;
/// §1: the side with more than half of the 70 points wins the hand; 35 wins the game.
const HALF: i32 = 35;
const GAME: i32 = 35;

fn pack() -> Pack {
    packs::latin40()
}

/// §1: 7 = 5, A = 4, K = 3, Q = 2, J = 1, the rest nothing.
fn card_points(card: Card) -> i32 {
    match card.rank_unchecked() {
        Rank::Seven => 5,
        Rank::Ace => 4,
        Rank::King => 3,
        Rank::Queen => 2,
        Rank::Jack => 1,
        _ => 0,
    }
}

/// MA-3: the sevens a hand may not discard at the start of the hand: every seven but the trump's
/// (each suit's seven joins the others once the suit is led, `MalillaHand::close_trick`).
fn sevens_not_led(trump: Suit) -> SuitedSet {
    Suit::ALL
        .into_iter()
        .filter(|&s| s != trump)
        .map(|s| Card::new(Rank::Seven, s))
        .collect()
}

/// The rule of §3 a card breaks (`judge`): one byte. The fault with its explanation is large and
/// wanted only when a card breaks a rule, which is rare; built and copied at every card, it showed
/// in the replay profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Breach {
    /// Rule 1: did not follow suit.
    Revoke,
    /// Rule 2: the forbidden seven.
    IllegalSeven,
    /// Rule 3: did not beat an opponent's winning card when able.
    FailedToOvertake,
}

/// The hand's facts `judge` asks besides the trick, the hand and the card: the trump,
/// `forbidden_sevens` the non-trump sevens of the suits not led in earlier tricks, and `winning`
/// the card winning the trick (`Winning::of`).
#[derive(Clone, Copy)]
struct Judged {
    trump: Suit,
    forbidden_sevens: SuitedSet,
    winning: Option<Winning>,
}

/// The cards of `hand` rules 1–2 allow on a `led` lead: the led suit if held, else every card
/// but the forbidden sevens (all of them when nothing else is left).
#[inline(always)]
fn allowed(forbidden_sevens: SuitedSet, hand: SuitedSet, led: Suit) -> SuitedSet {
    let of_led = hand.of_suit(led);
    if !of_led.is_empty() {
        return of_led;
    }
    let sevens = hand.intersect(forbidden_sevens);
    if sevens == hand {
        hand
    } else {
        hand.minus(sevens)
    }
}

/// §3: the legality of `card` played from `hand` to `trick`, checked in the order of MA-10: the
/// rule it breaks, `None` = legal (`fault` says how it broke it). Always inlined: every card is
/// judged, and its answer is nearly always `None`.
#[inline(always)]
fn judge(facts: Judged, trick: &Trick, hand: SuitedSet, card: Card) -> Option<Breach> {
    let Judged {
        trump,
        forbidden_sevens,
        winning,
    } = facts;
    debug_assert_eq!(winning, Winning::of(trick, Some(trump), &ORDER));
    let led = trick.led()?.suit_unchecked(); // the leader may lead anything, a 7 included
    // Rule 1: follow suit.
    if !hand.of_suit(led).is_empty() && card.suit_unchecked() != led {
        return Some(Breach::Revoke);
    }
    // Rule 2: the forbidden seven (MA-3): a non-trump 7 of a suit not yet led, when not following.
    let allowed = allowed(forbidden_sevens, hand, led);
    if !allowed.contains(card) {
        return Some(Breach::IllegalSeven);
    }
    // Rule 3: beat an opponent's winning card when a card legal under rules 1–2 does.
    let winning = winning?;
    let beaters = allowed.intersect(winning.beaten_by(trick, &BEATERS[trump as usize]));
    // Partner's card: no obligation (MA-5). Tested without branches, as whether a partner wins
    // and whether the hand can beat the trick is what a predictor cannot guess; only a fault,
    // which is rare, branches. The seat to play is the trick's next place (`trick.len()`); the
    // sides alternate round the four seats, so the winner is an opponent when an odd number of
    // places separates them (`opponent_at`): no seat looked up, at every card.
    let opponent = opponent_at(winning.pos(), trick.len());
    let able = !beaters.is_empty();
    let under = !beaters.contains(card);
    if opponent & able & under {
        return Some(Breach::FailedToOvertake);
    }
    None
}

/// Whether the card at place `winner` of a trick was played by an opponent of the seat at place
/// `to_play`: at four seats in partnerships the sides alternate round the table, and the cards of
/// a trick are played by seats in turn from the leader.
#[inline(always)]
fn opponent_at(winner: usize, to_play: usize) -> bool {
    (to_play - winner) & 1 == 1
}

/// The fault of `card`, played from `hand` to `trick`, that broke `breach` (`judge`, with the
/// same `facts`): out of line, as faults are rare and every card is judged.
#[cold]
fn fault(breach: Breach, facts: Judged, trick: &Trick, hand: SuitedSet, card: Card) -> Fault {
    let led = trick.led().expect("a card follows").suit_unchecked();
    match breach {
        Breach::Revoke => revoke(trick, hand.of_suit(led), card, led),
        Breach::IllegalSeven => illegal_seven(trick, card),
        Breach::FailedToOvertake => {
            let winning = facts.winning.expect("a winning card to beat");
            let beaten_by = winning.beaten_by(trick, &BEATERS[facts.trump as usize]);
            let beaters = allowed(facts.forbidden_sevens, hand, led).intersect(beaten_by);
            failed_to_overtake(trick, trick.plays()[winning.pos()], card, beaters)
        }
    }
}

// The faults of `judge`, out of line: they are rare, and every card is judged.

#[cold]
fn revoke(trick: &Trick, of_led: SuitedSet, card: Card, led: Suit) -> Fault {
    Fault::new(
        "revoke",
        "malilla.md §3.1",
        format!(
            "{} played {card} on a {} lead while holding {}",
            trick.next_seat(Table::FOUR),
            led.letter(),
            of_led
        ),
    )
}

#[cold]
fn illegal_seven(trick: &Trick, card: Card) -> Fault {
    Fault::new(
        "illegal_seven",
        "malilla.md §3.2",
        format!(
            "{} discarded {card}, the 7 of a suit not yet led, while holding other cards",
            trick.next_seat(Table::FOUR)
        ),
    )
}

#[cold]
fn failed_to_overtake(trick: &Trick, w: PlayedCard, card: Card, beaters: SuitedSet) -> Fault {
    Fault::new(
        "failed_to_overtake",
        "malilla.md §3.3",
        format!(
            "{} played {card} under {}'s winning {} while able to beat it with {}",
            trick.next_seat(Table::FOUR),
            w.seat,
            w.card,
            beaters
        ),
    )
}

impl Rules for Malilla {
    type Verb = Verb;
    type Details = NoDetails;
    type Carried = NoDetails;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn setup(&self, _: &Options) -> Setup {
        Setup {
            pack: pack(),
            hand: HandSize::Each(TRICKS as usize),
            counted_by: Some("malilla.md §6 MA-13: a misdeal"),
            parts: &[Holds {
                part: Part::DealersCard,
                what: "the dealer's turned trump card, the last of his ten (none needed in a misdeal)",
                count: Count::Between(0, 1),
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
        let pack = pack();
        let dealt = deal::check_holdings::<SuitedSet, _>(record, Table::FOUR, &pack)?;
        deal::check_whole_pack(&dealt, &pack)?;
        let dealer = record.dealer;
        let adj = Adjudication::new(INFO.id, dealer, before, TRICKS as usize);
        // MA-13: the right 40 cards with a wrong count per seat is a misdeal, not a refusal.
        let misdeal = deal::check_counts(record, Table::FOUR, TRICKS as usize).is_err();
        let trump_card = if misdeal {
            None
        } else {
            Some(deal::dealer_face_up(
                record,
                &dealt,
                dealer,
                "the turned trump card",
            )?)
        };
        // Boxed before it is filled in: the hand is large, and moved into a box at the end it is
        // copied whole once more.
        let mut hand = Box::new(MalillaHand {
            trump: trump_card.map_or(Suit::Spades, |c| c.suit_unchecked()),
            play: TrickPlay::new(Table::FOUR, dealt.hands, Table::FOUR.left(dealer)),
            forbidden_sevens: SuitedSet::EMPTY,
            allow_correction: options.flag("allow_correction_before_trick_end"),
            foul: None,
            winning: None,
            stopped_at: None,
            misdeal,
            abeyance: None,
            adj,
        });
        hand.adj.counts_card_points(Side::BOTH);
        if misdeal {
            hand.adj.outcome = Outcome::Misdeal;
            return Ok(hand);
        }
        let trump_card = trump_card.expect("checked above");
        hand.adj.trump = Some(hand.trump);
        hand.forbidden_sevens = sevens_not_led(hand.trump);
        // §4 trump-card bonus: credited at once (part of this hand's score whatever follows, MA-9),
        // unless it would bring the dealer's side to 35: then held until the hand result is known.
        let points = card_points(trump_card);
        if points > 0 {
            let side = Table::FOUR.side(dealer);
            let held = before.scores[side] + points >= GAME;
            if held {
                hand.abeyance = Some(hand.adj.bonuses.len());
            }
            hand.adj.bonus(Bonus {
                code: "trump_card",
                side,
                card: Some(trump_card),
                points,
                status: if held {
                    BonusStatus::Held
                } else {
                    BonusStatus::Scored
                },
            });
        }
        Ok(hand)
    }
}

#[derive(Clone)]
struct MalillaHand {
    trump: Suit,
    /// A suited pack: hands are 64-bit sets, and every card is checked against several.
    play: TrickPlay<SuitedSet>,
    /// The sevens that may not be discarded: not trumps, of a suit not led in a completed trick
    /// (MA-3).
    forbidden_sevens: SuitedSet,
    allow_correction: bool,
    /// The first established incorrect play: the offenders' side and its action.
    foul: Option<(Side, usize)>,
    /// The card winning the trick in progress, kept card by card: rule 3 (§3.3) asks it, and the
    /// cards that beat it, at every card.
    winning: Option<Winning>,
    /// A record error after the foul: from here on actions are ignored (README C6).
    stopped_at: Option<usize>,
    misdeal: bool,
    /// Index in `adj.bonuses` of a trump-card bonus held in abeyance.
    abeyance: Option<usize>,
    adj: Adjudication,
}

impl MalillaHand {
    /// What `judge` asks of the hand for a card played to the trick on the table.
    fn facts(&self) -> Judged {
        Judged {
            trump: self.trump,
            forbidden_sevens: self.forbidden_sevens,
            winning: self.winning,
        }
    }

    /// The judge of a card played to any trick (a correction's, whose trick is cut at the card):
    /// the winning card found from the trick.
    fn judge(&self) -> impl Fn(&Trick, SuitedSet, Card) -> Option<Fault> + use<> {
        let (trump, forbidden_sevens) = (self.trump, self.forbidden_sevens);
        move |trick, hand, card| {
            let facts = Judged {
                trump,
                forbidden_sevens,
                winning: Winning::of(trick, Some(trump), &ORDER),
            };
            judge(facts, trick, hand, card).map(|b| fault(b, facts, trick, hand, card))
        }
    }

    fn is_over(&self) -> bool {
        self.adj.tricks.len() == TRICKS as usize
    }

    /// No more play: a misdeal, a foul that lost the game, or the tenth trick.
    fn decided(&self) -> bool {
        self.misdeal || self.foul.is_some() || self.is_over()
    }

    /// The seat to play, none once the hand is decided.
    fn due(&self) -> Option<Seat> {
        if self.decided() {
            None
        } else {
            self.play.to_play()
        }
    }

    /// §5: the offenders' side loses the game; a later foul changes nothing (MA-15).
    fn foul(&mut self, e: Established) {
        let (side, index) = (Table::FOUR.side(e.seat), e.action_index);
        let decides = self.foul.is_none().then_some(Decides::Game);
        let consequence = match self.foul {
            None => {
                self.foul = Some((side, index));
                format!(
                    "{} lose the game at once; {} win it and the hand is not scored (malilla.md §5)",
                    side.spoken(),
                    side.other().spoken()
                )
            }
            Some((lost, at)) => format!(
                "no further effect: {} had already lost the game by the incorrect play at action {at} (MA-15)",
                lost.spoken()
            ),
        };
        let mut irregularity = e.irregularity(consequence);
        irregularity.effect.decides = decides;
        self.adj.irregularities.push(irregularity);
    }

    /// A card is on the trick: the winning card follows it, and a complete trick is closed (it
    /// `counts` as `close_trick` says).
    #[inline(always)]
    fn played(&mut self, counts: bool) {
        let beaters = &BEATERS[self.trump as usize];
        self.winning = Winning::after(self.winning, &self.play.trick, beaters);
        if self.play.is_complete() {
            self.close_trick(counts);
        }
    }

    /// Closes the trick on the table; it `counts` unless it was completed after the game was lost
    /// (MA-15: checked, but its winner and points count for nobody).
    fn close_trick(&mut self, counts: bool) {
        let led = self
            .play
            .trick
            .led()
            .expect("complete trick")
            .suit_unchecked();
        let top = self.winning.take().expect("a complete trick").pos();
        let winner = self.play.trick.plays()[top].seat;
        debug_assert_eq!(
            Some(winner),
            self.play
                .trick
                .trump_or_led_winner(Some(self.trump), &ORDER)
        );
        let points = self
            .play
            .trick
            .plays()
            .iter()
            .map(|p| card_points(p.card))
            .sum::<i32>()
            + 1;
        let established = self.play.close_trick_reported(winner, &mut self.adj.tricks);
        let report = self.adj.tricks.last_mut().expect("the trick just reported");
        report.points = Some(points);
        report.counts = counts;
        for e in established {
            self.foul(e);
        }
        if counts {
            let tally = &mut self.adj.tally[Table::FOUR.side(winner)];
            tally.tricks += 1;
            *tally.points.get_or_insert(0) += points;
        }
        self.forbidden_sevens.remove(Card::new(Rank::Seven, led));
        if self.is_over() {
            self.play.stop();
        }
    }

    fn ignore(&mut self, index: usize, reason: String) {
        self.adj.ignored_actions.push(IgnoredAction {
            action_index: index,
            reason: reason.into(),
        });
    }

    /// Any action, by the rules in full: what `apply` does not take its short way.
    #[inline(never)]
    fn apply_any(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        if self.misdeal {
            self.ignore(
                index,
                "the hand was misdealt: no play (malilla.md §5)".into(),
            );
            return Ok(());
        }
        if let Some(at) = self.stopped_at {
            self.ignore(index, format!("not checked: from action {at} on the record no longer fits the deal (README C6)"));
            return Ok(());
        }
        let lost_at = self.foul.map(|(_, at)| at);
        if self.is_over() {
            return match lost_at {
                Some(at) => {
                    self.ignore(
                        index,
                        format!("the game was already lost at action {at} (README C6)"),
                    );
                    Ok(())
                }
                // README C12 (a `correct` stays invalid_correct, C2).
                None => Err(RecordError::after_end(
                    index,
                    action,
                    "the hand ended with the tenth trick",
                )),
            };
        }
        let seat = action.seat;
        let result = match action.kind {
            Verb::Play(card) => {
                let (facts, hand) = (self.facts(), self.play.hand(seat));
                let fault = judge(facts, &self.play.trick, hand, card)
                    .map(|b| fault(b, facts, &self.play.trick, hand, card));
                let trick = self.play.trick.number;
                // MA-8: without the option a foul is complete the moment the card is played.
                let (now, pending) = if self.allow_correction {
                    (None, fault)
                } else {
                    (fault, None)
                };
                self.play.play(index, seat, card, pending).map(|()| {
                    if let Some(f) = now {
                        self.foul(Established {
                            fault: f,
                            action_index: index,
                            seat,
                            card,
                            trick,
                        });
                    }
                    self.played(lost_at.is_none());
                })
            }
            Verb::Correct(card) => match lost_at {
                Some(at) if !self.allow_correction => {
                    self.ignore(
                        index,
                        format!(
                            "the incorrect play at action {at} stands: a correction changes nothing (MA-8, MA-11)"
                        ),
                    );
                    return Ok(());
                }
                // README C3/C11: only a seat with a foul pending may correct. Without the option no
                // foul is ever pending (MA-8), so before any foul every `correct` is invalid_correct.
                _ => {
                    let judge = self.judge();
                    let corrected = self.play.correct(index, seat, card, judge);
                    self.winning = Winning::of(&self.play.trick, Some(self.trump), &ORDER);
                    corrected
                }
            },
        };
        match (result, lost_at) {
            (Ok(()), Some(at)) => {
                self.ignore(
                    index,
                    format!("the game was already lost at action {at}: checked, no effect (MA-15)"),
                );
                Ok(())
            }
            (Err(e), Some(_)) => {
                // README C6: the game is decided; what the record says after is not a record error.
                self.stopped_at = Some(index);
                self.ignore(index, format!("not checked: {} (README C6)", e.detail));
                Ok(())
            }
            (result, _) => result,
        }
    }
}

impl HandState<Verb> for MalillaHand {
    /// Nearly every action is a legal card played while the hand goes on: `apply` plays it here,
    /// and sends everything else (a fault, a correction, a decided hand) the general way
    /// (`apply_any`). Split for speed: with no fault the play has nothing to hold in abeyance, and
    /// the rare cases' state stays off the path every card takes. Always inlined: into the
    /// replay of a whole hand (`HandState::replay`), its loop over the cards.
    #[inline(always)]
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        if let Verb::Play(card) = action.kind
            && !self.decided()
            && self.stopped_at.is_none()
        {
            let hand = self.play.hand(action.seat);
            if judge(self.facts(), &self.play.trick, hand, card).is_none() {
                self.play.play(index, action.seat, card, None)?;
                self.played(true);
                return Ok(());
            }
        }
        self.apply_any(index, action)
    }

    fn view(&self) -> TableView {
        let mut view = TableView::new(
            if self.decided() { "over" } else { "play" },
            self.due().into_iter().collect(),
            &self.play,
            &self.adj.match_after,
        );
        view.trump = self.adj.trump;
        view.tally = self.adj.tally.clone();
        view.irregularities = self.adj.irregularities.clone();
        view
    }

    fn locus(&self) -> Locus {
        Locus::of_play(&self.play, self.due().is_none())
    }

    fn candidates(&self) -> Vec<Action<Verb>> {
        if self.decided() {
            return Vec::new();
        }
        self.play.candidates(Verb::Play, Verb::Correct)
    }

    fn faulted(&self, index: usize) -> bool {
        self.adj.faulted(index) || self.play.faulted(index)
    }

    fn ignored(&self, index: usize) -> bool {
        self.adj.ignored(index)
    }

    fn finish(mut self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        let ending = if self.decided() {
            Ending::Over
        } else {
            Ending::Open {
                due: self.play.to_play(),
                detail: format!(
                    "the record stops in trick {} of {TRICKS} with no incorrect play",
                    self.play.trick.number
                ),
            }
        };
        let (foul, misdeal, abeyance) = (self.foul, self.misdeal, self.abeyance);
        let adj = &mut self.adj;
        adj.corrected_revokes = std::mem::take(&mut self.play.corrected);
        // C8: the deal passes left after every hand (a record error leaves the match as it was).
        adj.match_after.next_dealer = Some(Table::FOUR.left(adj.dealer));
        adj.conclude(error, ending, |adj| score(adj, misdeal, foul, abeyance));
        self.adj
    }
}

/// Rules on a decided hand: a misdeal, a game lost by a foul, or the ten tricks played (§4, §5).
fn score(
    adj: &mut Adjudication,
    misdeal: bool,
    foul: Option<(Side, usize)>,
    abeyance: Option<usize>,
) {
    let dealer = adj.dealer;
    if misdeal {
        // §5: the errant dealer surrenders the cards to the next dealer; no score, no bonus.
        adj.irregularities.push(Irregularity {
            code: "misdeal",
            action_index: None,
            trick: None,
            seat: dealer,
            card: None,
            rule: "malilla.md §5, MA-13",
            explanation: format!(
                "{dealer} dealt the 40 cards with a wrong number of cards to some seat"
            ),
            consequence: format!(
                "no play and no score; the deal passes to {}",
                Table::FOUR.left(dealer)
            ),
            effect: Effect::default(),
        });
        adj.hand_score = Some(adj.total());
        return;
    }
    if let Some((side, _)) = foul {
        adj.outcome = Outcome::GameLost;
        // MA-9: a bonus credited at the deal stays (it is all the hand scores); a held one never counts.
        if let Some(b) = abeyance {
            adj.bonuses[b].status = BonusStatus::NotScored;
        }
        adj.settle();
        let m = &mut adj.match_after;
        m.end_game([side.other()]);
        return;
    }
    // §4: the side with more than 35 of the 70 points wins the hand and scores the excess;
    // 35–35 scores nothing.
    let before = adj.match_before.scores;
    let mut game_won = None;
    for side in Side::BOTH {
        let points = adj.tally[side].points.unwrap_or(0);
        if points > HALF {
            adj.hand_winner = Some(side);
            adj.score(
                side,
                points - HALF,
                ScoreSource::Tricks,
                "hand_result",
                None,
            );
            // §4 order (1): the hand result, on top of a bonus credited at the deal.
            if before[side] + adj.total()[side] >= GAME {
                game_won = Some(side);
            }
        }
    }
    // (2) a held bonus counts only if the hand result did not already end the game (MA-4).
    if let Some(b) = abeyance {
        let mut bonus = adj.bonuses.remove(b);
        bonus.status = if game_won.is_some() {
            BonusStatus::NotScored
        } else {
            BonusStatus::Scored
        };
        adj.bonus(bonus);
    }
    adj.settle();
    let m = &mut adj.match_after;
    let scores = m.scores;
    if let Some(side) = game_won.or_else(|| Side::BOTH.into_iter().find(|&s| scores[s] >= GAME)) {
        m.end_game([side]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// §1's card points, written out as the rules give them: in each suit 7 A K Q J count
    /// 5 4 3 2 1 and 6 5 4 3 2 nothing, so the 40 cards hold 60 and the ten tricks' points bring
    /// the hand to 70.
    #[test]
    fn card_points_are_the_ranks_points() {
        const POINTS: [(&str, i32); 10] = [
            ("7", 5),
            ("A", 4),
            ("K", 3),
            ("Q", 2),
            ("J", 1),
            ("6", 0),
            ("5", 0),
            ("4", 0),
            ("3", 0),
            ("2", 0),
        ];
        let pack = pack();
        let mut listed = 0;
        for suit in ["S", "H", "D", "C"] {
            for (rank, points) in POINTS {
                let card: Card = format!("{rank}{suit}").parse().unwrap();
                assert!(pack.cards.contains(card), "{card} is in the pack");
                assert_eq!(card_points(card), points, "{card}");
                listed += 1;
            }
        }
        assert_eq!(listed, pack.len(), "every card of the pack is listed");
        let cards: i32 = pack.cards.iter().map(card_points).sum();
        assert_eq!(cards + i32::from(TRICKS), 70);
    }

    /// Rule 3's opponent by places in the trick (`opponent_at`) is the seat of the other side, for
    /// every leader, every winning place and every place to play after it.
    #[test]
    fn an_opponent_is_an_odd_number_of_places_away() {
        for leader in Table::FOUR.seats() {
            let mut seats = vec![leader];
            for _ in 1..4 {
                seats.push(Table::FOUR.next(*seats.last().unwrap()));
            }
            for to_play in 1..4 {
                for winner in 0..to_play {
                    let sides = Table::FOUR.side(seats[winner]) != Table::FOUR.side(seats[to_play]);
                    assert_eq!(
                        opponent_at(winner, to_play),
                        sides,
                        "{leader} {winner} {to_play}"
                    );
                }
            }
        }
    }
}
