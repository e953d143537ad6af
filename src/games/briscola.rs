//! Briscola (`docs/rules/briscola.md`): 2, 3 or 4 players (4 in partnerships N–S v E–W), the
//! 40-card pack (39 for three, one 2 removed); three cards each, the upcard under the stock fixes
//! trumps; any card may be played; the trick winner draws first, then the others in turn, the last
//! draw taking the upcard; card points A 11, 3 10, K 4, Q 3, J 2 (120); a match of 2 hands (3 with
//! three players) won on total points, a tie settled by tie-breaker hands scored on their own.

use crate::cards::{Card, CardSet, Pack, Rank, Suit, packs};
use crate::details;
use crate::engine::deal::{Count, HandSize, Holds, Part, Setup};
use crate::engine::{
    Adjudication, Ending, Event, FieldError, GameInfo, HandState, Locus, MatchState, NoDetails,
    OptionKind, OptionSpec, Options, PerSide, PlayedCard, RankOrder, RecordError, Rules,
    ScoreSource, Seat, Side, Stock, Table, TableView, TrickPlay, TrickReport, deal,
};
use crate::record::{Action, HandRecord};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub struct Briscola;

crate::verbs! {
    /// What a record of Briscola can say.
    #[derive(Copy)]
    pub enum Verb in "Briscola" {
        Play(Card) = "play": "A card played to the current trick.",
        Draw(Card) = "draw": "A card drawn from the stock after a trick, the winner first (optional); checked against the stock order.",
        Correct(Card) = "correct": "Replaces the seat's card in the current, incomplete trick (a revoke correction).",
    }
}

static INFO: GameInfo = GameInfo {
    id: "briscola",
    name: "Briscola",
    // The `players` option: 4 in partnerships (the default), 2 or 3 each for himself.
    tables: crate::engine::Tables(&[Table::FOUR, Table::solo(2), Table::solo(3)]),
    deck: "40-card pack (A K Q J 7 6 5 4 3 2); 39 cards for three players (one 2 removed)",
    // No target score: the match is a fixed number of hands (§4).
    game_target: 0,
    options: &[
        OptionSpec {
            name: "players",
            kind: OptionKind::Choice {
                values: &["2", "3", "4"],
                default: "4",
            },
            description: "Number of players: 4 in partnerships N–S v E–W (seats N E S W); 2 or 3 each \
                          for himself (seats P1, P2, P3).",
            rule: "briscola.md §1",
        },
        OptionSpec {
            name: "removed_two",
            kind: OptionKind::Choice {
                values: &["2S", "2H", "2D", "2C"],
                default: "2C",
            },
            description: "Three players: the 2 taken out of the pack to leave 39 cards. Only the default \
                          is accepted with 2 or 4 players, who use the whole pack.",
            rule: "briscola.md §6 BR-1",
        },
    ],
    rules: "docs/rules/briscola.md",
    irregularities: &[],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    record_errors: &[
        "out_of_turn",
        "card_not_held",
        "card_played_twice",
        "invalid_correct",
        "unexpected_action",
        "action_after_end",
        "incomplete_hand",
        "wrong_draw",
    ],
    events: &["upcard_turned"],
    score_codes: &["card_points"],
    titles: crate::engine::Titles(&[(
        "wrong_draw",
        "Card drawn other than the one the stock gives",
    )]),
};

/// §1: A 3 K Q J 7 6 5 4 2 in every suit.
const ORDER: RankOrder = RankOrder::new(&[
    Rank::Ace,
    Rank::Three,
    Rank::King,
    Rank::Queen,
    Rank::Jack,
    Rank::Seven,
    Rank::Six,
    Rank::Five,
    Rank::Four,
    Rank::Two,
]);
/// §1: three cards each.
const DEALT: usize = 3;

/// §1: A 11, 3 10, K 4, Q 3, J 2, others 0.
fn card_points(card: Card) -> i32 {
    match card.rank_unchecked() {
        Rank::Ace => 11,
        Rank::Three => 10,
        Rank::King => 4,
        Rank::Queen => 3,
        Rank::Jack => 2,
        _ => 0,
    }
}

/// §4: hands in a match before any tie-breaker: 3 with three players (each deals once), else 2.
fn match_hands(table: Table) -> u32 {
    if table.size == 3 { 3 } else { 2 }
}

/// The sides among `sides` with the highest `value`.
fn leaders(sides: impl Iterator<Item = Side>, value: impl Fn(Side) -> i32) -> Vec<Side> {
    let sides: Vec<Side> = sides.collect();
    let top = sides.iter().map(|&s| value(s)).max().unwrap_or(0);
    sides.into_iter().filter(|&s| value(s) == top).collect()
}

/// What Briscola carries from hand to hand besides the scores.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = BriscolaCarried)]
pub struct Carried {
    /// The sides still contending in a tie-breaker hand (BR-b): set when the match's hands end
    /// with the lead tied; such a hand is scored on its own and decides among these sides only.
    #[serde(default)]
    pub contenders: Vec<Side>,
}

/// The contenders a match state names (none when it names none).
#[cfg(test)]
fn contenders(m: &MatchState) -> Vec<Side> {
    details::read::<Carried>(&m.details, "/match_state")
        .map(|c| c.contenders)
        .unwrap_or_default()
}

fn set_contenders(m: &mut MatchState, contenders: &[Side]) {
    m.details = details::Details::of(Carried {
        contenders: contenders.to_vec(),
    });
}

/// A single leader wins the match; tied leaders contend in a tie-breaker hand (BR-b, BR-3).
fn decide(m: &mut MatchState, leaders: Vec<Side>) {
    if let [winner] = leaders[..] {
        m.end_game([winner]);
        set_contenders(m, &[]);
    } else {
        set_contenders(m, &leaders);
    }
}

/// The sides a tie-breaker hand decides among, if this hand is one: the match state's contenders,
/// or, when it has played the match's hands without naming them, the sides tied for the lead.
fn tie_break(table: Table, before: &MatchState) -> Result<Vec<Side>, Vec<FieldError>> {
    let hands = match_hands(table);
    let named = details::read::<Carried>(&before.details, "/match_state")?.contenders;
    if !named.is_empty() {
        if let Some(i) = named.iter().position(|s| !table.sides().any(|t| t == *s)) {
            return Err(vec![FieldError::new(
                format!("/match_state/contenders/{i}"),
                format!("{} does not play at this table", named[i]),
            )]);
        }
        // BR-b: distinct sides, all tied for the highest total (a tie-breaker leaves the totals as
        // they are), else the tie-breakers could never end or could crown a side that trails.
        let top = leaders(table.sides(), |s| before.scores[s]);
        for (i, side) in named.iter().enumerate() {
            let problem = if named[..i].contains(side) {
                format!("{side} is named twice")
            } else if !top.contains(side) {
                format!(
                    "{side} has {} but the highest total is {}: only the sides tied for the lead contend (BR-b)",
                    before.scores[*side], before.scores[top[0]]
                )
            } else {
                continue;
            };
            return Err(vec![FieldError::new(
                format!("/match_state/contenders/{i}"),
                problem,
            )]);
        }
        if named.len() < 2 || before.hands_played < hands {
            return Err(vec![FieldError::new(
                "/match_state/contenders".into(),
                format!(
                    "a tie-breaker is between two or more sides tied after the match's {hands} hands"
                ),
            )]);
        }
        return Ok(named);
    }
    if before.hands_played < hands {
        return Ok(Vec::new());
    }
    let tied = leaders(table.sides(), |s| before.scores[s]);
    if tied.len() < 2 {
        return Err(vec![FieldError::new(
            "/match_state/hands_played".into(),
            format!(
                "the match of {hands} hands is over and {} leads alone: start a new match",
                tied.first().map_or("nobody".into(), |s| s.spoken())
            ),
        )]);
    }
    Ok(tied)
}

/// BR-1: the 40-card pack, without the `removed_two` for three players.
fn pack(table: Table, options: &Options) -> Pack {
    let pack = packs::latin40();
    if table.size != 3 {
        return pack;
    }
    let removed: Card = options
        .choice("removed_two")
        .parse()
        .expect("the option's values are cards");
    Pack {
        name: "39-card pack (the 40-card pack without one 2)",
        cards: pack.cards.minus(CardSet::of(&[removed])),
        ..pack
    }
}

impl Rules for Briscola {
    type Verb = Verb;
    type Details = NoDetails;
    type Carried = Carried;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn setup(&self, options: &Options) -> Setup {
        Setup {
            pack: pack(self.table(options), options),
            hand: HandSize::Each(DEALT),
            counted_by: None,
            parts: &[
                Holds {
                    part: Part::FaceUp,
                    what: "the upcard that fixes trumps",
                    count: Count::Between(1, 1),
                },
                Holds {
                    part: Part::Stock,
                    what: "the stock in order, top card first",
                    count: Count::Rest { at_least: 0 },
                },
            ],
        }
    }

    fn table(&self, options: &Options) -> Table {
        match options.choice("players") {
            "2" => Table::solo(2),
            "3" => Table::solo(3),
            _ => Table::FOUR,
        }
    }

    /// BR-b: a tie-breaker hand is scored on its own and leaves the match totals as they are.
    fn hand_moves_match(&self, options: &Options, before: &MatchState) -> bool {
        !tie_break(self.table(options), before).is_ok_and(|contenders| !contenders.is_empty())
    }

    fn start(
        &self,
        record: &HandRecord<Verb>,
        options: &Options,
        table: Table,
        before: &MatchState,
    ) -> Result<Box<dyn HandState<Verb>>, Vec<FieldError>> {
        let pack = pack(table, options);
        if table.size != 3 && options.choice("removed_two") != "2C" {
            return Err(vec![FieldError::new(
                "/options/removed_two".into(),
                format!(
                    "only three players remove a 2; {} players use the whole 40-card pack (BR-1)",
                    table.size
                ),
            )]);
        }
        let mut dealt = deal::check_cards(record, table, &pack)?;
        let upcard = record.face_up[0];
        deal::check_undealt(&record.face_up, "face_up", &pack, &mut dealt)?;
        deal::check_undealt(&record.stock, "stock", &pack, &mut dealt)?;
        deal::check_whole_pack(&dealt, &pack)?;
        let contenders = tie_break(table, before)?;
        let dealer = table.resolve(record.dealer).expect("checked with the deal");
        let trump = upcard.suit_unchecked();
        let tricks = pack.len() as usize / table.size;
        let mut adj = Adjudication::new(INFO.id, dealer, before, tricks);
        // `match_before` echoes the match state as sent; a tie-breaker inferred from the scores
        // is stated in the match state it leaves (kept while the tie-breakers go on).
        set_contenders(&mut adj.match_after, &contenders);
        adj.trump = Some(trump);
        adj.tally = PerSide::over(table.sides());
        adj.counts_card_points(table.sides());
        adj.events.push(Event::new("upcard_turned", None, dealer, vec![upcard], format!(
                "{dealer} turns up {upcard}: {} are trumps, and {upcard} is the last card drawn (§1)",
                suit_name(trump)
            )));
        Ok(Box::new(Hand {
            table,
            // §1: the player on the dealer's left leads.
            play: TrickPlay::new(table, dealt.hands, table.next(dealer)),
            stock: Stock::new(&record.stock, Some(upcard)),
            trump,
            tricks,
            contenders,
            draws: None,
            adj,
        }))
    }
}

fn suit_name(suit: Suit) -> &'static str {
    match suit {
        Suit::Spades => "spades",
        Suit::Hearts => "hearts",
        Suit::Diamonds => "diamonds",
        Suit::Clubs => "clubs",
    }
}

#[derive(Clone)]
struct Hand {
    table: Table,
    play: TrickPlay,
    stock: Stock,
    trump: Suit,
    /// Tricks in the hand: every card is played.
    tricks: usize,
    /// Non-empty when this hand is a tie-breaker among these sides.
    contenders: Vec<Side>,
    /// The draws due after the last trick, while the record may still state them (BR-e).
    draws: Option<Draws>,
    adj: Adjudication,
}

/// One round of draws after a trick: the cards the stock gives, in drawing order (BR-2), and how
/// many of them the record has stated so far. A round is stated whole or left to the stock.
#[derive(Clone)]
struct Draws {
    due: Vec<(Seat, Card)>,
    stated: usize,
}

impl Hand {
    fn is_over(&self) -> bool {
        self.adj.tricks.len() == self.tricks
    }

    /// §4: the highest trump, else the highest card of the led suit; the winner leads and draws first.
    fn close_trick(&mut self) {
        let winner = self
            .play
            .trick
            .trump_or_led_winner(Some(self.trump), &ORDER)
            .expect("a complete trick");
        // No play restriction exists, so no fault is ever pending (BR-d).
        let (trick, _) = self.play.close_trick(winner);
        let points: i32 = trick.plays().iter().map(|p| card_points(p.card)).sum();
        let side = self.table.side(winner);
        self.adj.tally[side].tricks += 1;
        *self.adj.tally[side].points.get_or_insert(0) += points;
        let mut report = TrickReport::new(trick, winner);
        report.points = Some(points);
        // §1, BR-2: each player draws one card, the winner first; the last draw takes the upcard.
        // The draws follow from the stock; a record that states them is checked against it (BR-e).
        let due = self.stock.draw_round(&mut self.play, winner);
        report.draws = Some(due.iter().map(|&(s, c)| PlayedCard::new(s, c)).collect());
        self.draws = (!due.is_empty()).then_some(Draws { due, stated: 0 });
        self.adj.tricks.push(report);
        if self.is_over() {
            self.play.stop();
        }
    }

    /// A `draw` action (BR-e): the next draw of the round, by the seat due, of the stock's card.
    fn draw(&mut self, index: usize, action: &Action<Verb>, card: Card) -> Result<(), RecordError> {
        let Some(round) = &mut self.draws else {
            let detail = "no draw is due: draws follow a complete trick while the stock lasts";
            return Err(self.misplaced(index, action, detail.into()));
        };
        let (seat, due) = round.due[round.stated];
        if action.seat != seat {
            return Err(RecordError::on(
                "out_of_turn",
                index,
                action,
                format!("{seat} draws next (the trick's winner first, then in turn: BR-2)"),
            ));
        }
        if card != due {
            return Err(RecordError::on(
                "wrong_draw",
                index,
                action,
                format!("the stock gives {seat} {due} here, not {card} (BR-e)"),
            ));
        }
        round.stated += 1;
        if round.stated == round.due.len() {
            self.draws = None;
        }
        Ok(())
    }

    /// An action that does not fit the moment: by a seat not due to act, `out_of_turn`; else
    /// `unexpected_action` (README C12).
    fn misplaced(&self, index: usize, action: &Action<Verb>, detail: String) -> RecordError {
        match self.due() {
            Some(seat) if seat != action.seat => RecordError::on(
                "out_of_turn",
                index,
                action,
                format!("it is {seat}'s turn: {detail}"),
            ),
            _ => RecordError::unexpected(index, action, detail),
        }
    }

    /// The seat due to act: the next drawer of a round the record has begun to state, else the
    /// next to play.
    fn due(&self) -> Option<Seat> {
        match &self.draws {
            Some(round) if round.stated > 0 => Some(round.due[round.stated].0),
            _ => self.play.to_play(),
        }
    }
}

/// §4: each side scores its card points; they add to the match totals, except in a tie-breaker
/// among `contenders`, which is scored on its own (BR-b); the deal passes left after every hand
/// (BR-c).
fn score(adj: &mut Adjudication, table: Table, contenders: &[Side]) {
    for side in table.sides() {
        let points = adj.tally[side].points.unwrap_or(0);
        adj.score(side, points, ScoreSource::Tricks, "card_points", None);
    }
    let m = &mut adj.match_after;
    m.next_dealer = Some(table.left(adj.dealer));
    if contenders.is_empty() {
        adj.settle();
        let m = &mut adj.match_after;
        if m.hands_played >= match_hands(table) {
            let scores = m.scores;
            decide(m, leaders(table.sides(), |s| scores[s]));
        }
    } else {
        let score = adj.total();
        adj.hand_score = Some(score);
        let m = &mut adj.match_after;
        m.hands_played += 1;
        decide(m, leaders(contenders.iter().copied(), |s| score[s]));
    }
}

impl HandState<Verb> for Hand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        if self.is_over() {
            return Err(RecordError::after_end(
                index,
                action,
                &format!("every card has been played in the {} tricks", self.tricks),
            ));
        }
        if let Verb::Draw(card) = action.kind {
            return self.draw(index, action, card);
        }
        // A round of draws the record has not stated is taken from the stock (BR-e); one it has
        // begun to state must be finished first.
        match &self.draws {
            Some(round) if round.stated > 0 => {
                let (seat, card) = round.due[round.stated];
                let detail = format!("{seat} draws {card} next (BR-e)");
                return Err(self.misplaced(index, action, detail));
            }
            _ => self.draws = None,
        }
        match action.kind {
            // §3: any card may be played at any time.
            Verb::Play(card) => self.play.play(index, action.seat, card, None)?,
            // README C11: nothing can be revoked, so no seat is ever entitled to a correction.
            Verb::Correct(_) => {
                return Err(RecordError::on(
                    "invalid_correct",
                    index,
                    action,
                    "Briscola has no play restriction, so there is nothing to correct (§3, BR-d)"
                        .into(),
                ));
            }
            _ => unreachable!("verbs are checked against GameInfo before replay"),
        }
        if self.play.is_complete() {
            self.close_trick();
        }
        Ok(())
    }

    fn view(&self) -> TableView {
        let over = self.is_over();
        // A round of draws the record has begun to state must be finished first (BR-e).
        let drawing = self.draws.as_ref().is_some_and(|r| r.stated > 0);
        let phase = match (over, drawing) {
            (true, _) => "over",
            (_, true) => "draw",
            _ => "play",
        };
        let mut view = TableView::new(
            phase,
            self.due().into_iter().collect(),
            &self.play,
            &self.adj.match_after,
        );
        view.trump = Some(self.trump);
        view.tally = self.adj.tally.clone();
        if let Some(round) = self.draws.as_ref().filter(|_| drawing) {
            // The cards still due are in the hands already (a round not stated is drawn at
            // once), but their seats have not drawn them yet.
            let mut hands = std::mem::take(&mut view.hands);
            for (seat, card) in &round.due[round.stated..] {
                let held = hands.entry(*seat).or_default();
                if let Some(at) = held.iter().position(|c| c == card) {
                    held.remove(at);
                }
            }
            view.set_hands(hands);
        }
        view
    }

    fn locus(&self) -> Locus {
        Locus::of_play(&self.play, self.due().is_none())
    }

    /// The cards of the seat to play and, while a round of draws may be stated, the stock's next
    /// card drawn by any seat (BR-e).
    fn candidates(&self) -> Vec<Action<Verb>> {
        if self.is_over() {
            return Vec::new();
        }
        let mut out = Vec::new();
        if let Some(round) = &self.draws {
            let card = round.due[round.stated].1;
            out.extend(self.table.seats().map(|seat| Action {
                seat,
                kind: Verb::Draw(card),
            }));
        }
        out.extend(self.play.candidates(Verb::Play, Verb::Correct));
        out
    }

    fn faulted(&self, index: usize) -> bool {
        self.adj.faulted(index) || self.play.faulted(index)
    }

    fn finish(mut self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        let ending = if self.is_over() {
            Ending::Over
        } else {
            Ending::Open {
                due: self.due(),
                detail: format!(
                    "the record stops in trick {} of {}",
                    self.play.trick.number, self.tricks
                ),
            }
        };
        let (table, contenders) = (self.table, std::mem::take(&mut self.contenders));
        self.adj
            .conclude(error, ending, |adj| score(adj, table, &contenders));
        self.adj
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sides(names: &[&str]) -> Vec<Side> {
        names.iter().map(|n| n.parse().unwrap()).collect()
    }

    #[test]
    fn card_points_total_120() {
        let total: i32 = packs::latin40().cards.iter().map(card_points).sum();
        assert_eq!(total, 120);
    }

    #[test]
    fn three_is_second_only_to_the_ace() {
        assert!(ORDER.strength(Rank::Three) > ORDER.strength(Rank::King));
        assert!(ORDER.strength(Rank::Ace) > ORDER.strength(Rank::Three));
        assert!(ORDER.strength(Rank::Four) > ORDER.strength(Rank::Two));
    }

    #[test]
    fn a_tied_lead_goes_to_a_tie_breaker_among_the_tied_only() {
        let table = Table::solo(3);
        let mut m = MatchState {
            scores: PerSide::over(table.sides()),
            ..MatchState::default()
        };
        let ps = sides(&["P1", "P2", "P3"]);
        m.scores[ps[0]] = 130;
        m.scores[ps[1]] = 130;
        m.scores[ps[2]] = 100;
        let scores = m.scores;
        decide(&mut m, leaders(table.sides(), |s| scores[s]));
        assert_eq!(contenders(&m), vec![ps[0], ps[1]]);
        assert!(!m.game_over);
        m.hands_played = 3;
        assert_eq!(tie_break(table, &m).unwrap(), vec![ps[0], ps[1]]);
        // Inferred from the scores when the state does not name them.
        let mut inferred = m.clone();
        set_contenders(&mut inferred, &[]);
        assert_eq!(tie_break(table, &inferred).unwrap(), vec![ps[0], ps[1]]);
        // P3's hand score does not matter: P2 beats P1 among the contenders.
        let mut hand = PerSide::over(table.sides());
        hand[ps[0]] = 30;
        hand[ps[1]] = 40;
        hand[ps[2]] = 50;
        let named = contenders(&m);
        decide(&mut m, leaders(named.into_iter(), |s| hand[s]));
        assert_eq!((m.game_over, &m.winners), (true, &vec![ps[1]]));
        assert!(contenders(&m).is_empty());
    }

    #[test]
    fn a_match_that_is_over_is_refused() {
        let table = Table::FOUR;
        let mut m = MatchState {
            hands_played: 2,
            ..MatchState::default()
        };
        m.scores[Side::NS] = 130;
        m.scores[Side::EW] = 110;
        assert_eq!(
            tie_break(table, &m).unwrap_err()[0].pointer,
            "/match_state/hands_played"
        );
        m.hands_played = 1;
        assert!(tie_break(table, &m).unwrap().is_empty());
    }
}
