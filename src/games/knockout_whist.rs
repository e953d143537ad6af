//! Knockout Whist (`docs/rules/knockout-whist.md`): 3 to 7 players each for himself, the 52-card
//! pack, A high. A hand is one round: 7 cards each in round 1, one fewer each round after. Round
//! 1's trump is the card turned after the deal and the dealer leads; later the round's dealer
//! (who took most tricks in the round before) names trump and leads. Follow suit if able. A player
//! who takes no trick, or who revoked (§5 DEFAULT), is knocked out; players tied for most tricks
//! cut for the next deal. The last player in wins.

use crate::cards::{Card, Suit, packs};
use crate::details;
use crate::engine::deal::{Count, HandSize, Holds, Part, Setup};
use crate::engine::{
    Adjudication, Called, Ending, Event, FieldError, GameInfo, HandState, Locus, MatchState,
    NoDetails, OptionKind, OptionSpec, Options, PerSide, PlayedCard, RankOrder, RecordError,
    Rotation, Rules, ScoreSource, Seat, Side, Table, TableView, Trick, TrickPlay, TrickReport,
    deal, must_follow_suit,
};
use crate::record::{Action, HandRecord};
use serde::Serialize;
use utoipa::ToSchema;

pub struct KnockoutWhist;

crate::verbs! {
    /// What a record of Knockout Whist can say.
    pub enum Verb in "KnockoutWhist" {
        Trump(Called) = "trump": "Rounds 2 to 7: the round's dealer names trump (S, H, D or C) after seeing his hand.",
        Play(Card) = "play": "A card played to the current trick.",
        Correct(Card) = "correct": "Replaces the seat's card in the current, incomplete trick (a revoke correction).",
        Cut(Called) = "cut": "A player tied for most tricks cuts this card for the next deal (KW-3, KW-e).",
    }
}

/// The tables of the `players` option, the default (four, seats N E S W) first.
const TABLES: [Table; 5] = [
    Table::solo(4).shrinking(),
    Table::solo(3).shrinking(),
    Table::solo(5).shrinking(),
    Table::solo(6).shrinking(),
    Table::solo(7).shrinking(),
];

static INFO: GameInfo = GameInfo {
    id: "knockout-whist",
    name: "Knockout Whist",
    tables: crate::engine::Tables(&TABLES),
    deck: "52-card pack, A high; 7 cards each in round 1, one fewer each round, the rest undealt",
    // No target: the last player left wins (§4).
    game_target: 0,
    options: &[OptionSpec {
        name: "players",
        kind: OptionKind::Choice {
            values: &["3", "4", "5", "6", "7"],
            default: "4",
        },
        description: "Number of players, each for himself (seats P1..Pn; at four, N E S W as at every \
                      four-seat table); each player's side has his seat's name.",
        rule: "knockout-whist.md §1",
    }],
    rules: "docs/rules/knockout-whist.md",
    irregularities: &["revoke"],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    record_errors: &[
        "out_of_turn",
        "unexpected_action",
        "invalid_trump",
        "card_not_held",
        "card_played_twice",
        "invalid_correct",
        "invalid_cut",
        "action_after_end",
        "incomplete_hand",
    ],
    events: &["trump_turned", "trump_named", "cut", "knocked_out"],
    score_codes: &[SURVIVED],
    titles: crate::engine::Titles(&[
        (
            "invalid_trump",
            "Trump named that is not one of the four suits",
        ),
        ("invalid_cut", "Cut that is not a card of the pack"),
        ("trump_turned", "Trump turned after the deal"),
        ("trump_named", "Trump named by the dealer"),
        ("cut", "Cut for the deal"),
        ("knocked_out", "Knocked out"),
        ("survived", "Still in after the round"),
    ]),
};

/// The match score: one point to each player still in after a round, so that the totals are the
/// order of knock-out (the winner highest; players knocked out together equal).
const SURVIVED: &str = "survived";

/// §4: seven rounds, of 7 cards down to 1.
const ROUNDS: u32 = 7;

/// §1: A high.
const ORDER: RankOrder = RankOrder::ACE_HIGH;

/// §4: cards per player in `round` (1 to 7): 8 − round.
fn cards_in(round: u32) -> usize {
    (8 - round) as usize
}

/// What a Knockout Whist adjudication adds.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = KnockoutWhistDetails)]
pub struct Details {
    /// The round this hand is (1 to 7): `hands_played + 1`.
    pub round: u32,
    /// Cards each player was dealt: 8 − round.
    pub cards: u32,
    /// Players knocked out at the end of this round, in seat order (`[]` when none, or when the
    /// hand is not scored).
    pub knocked_out: Vec<Seat>,
    /// The cuts for the next deal, each a list of the cards cut (KW-3: a re-cut among those still
    /// equal follows); `[]` when nobody tied for most tricks.
    pub cuts: Vec<Vec<PlayedCard>>,
}

impl Rules for KnockoutWhist {
    type Verb = Verb;
    type Details = Details;
    type Carried = NoDetails;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn table(&self, options: &Options) -> Table {
        let n: usize = options.choice("players").parse().expect("3 to 7");
        Table::solo(n).shrinking()
    }

    /// §4, KW-a: the player who took most tricks deals the next round (ties cut).
    fn rotation(&self, _: &Options) -> Rotation {
        Rotation::ByResult("knockout-whist.md §4, KW-a")
    }

    fn setup(&self, _: &Options) -> Setup {
        Setup {
            pack: packs::standard52(),
            hand: HandSize::Each(cards_in(1)),
            // §4: the round (carried in the match state) decides the count, checked in `start`.
            counted_by: Some("knockout-whist.md §4: 8 − round cards each"),
            // §3: round 1's trump is the card turned after the deal (none in later rounds).
            parts: &[Holds {
                part: Part::FaceUp,
                what: "round 1: the card turned for trump after the deal; later rounds: none",
                count: Count::Between(0, 1),
            }],
        }
    }

    fn start(
        &self,
        record: &HandRecord<Verb>,
        _: &Options,
        table: Table,
        before: &MatchState,
    ) -> Result<Box<dyn HandState<Verb>>, Vec<FieldError>> {
        let pack = packs::standard52();
        if before.hands_played >= ROUNDS {
            return Err(vec![FieldError::new(
                "/match_state/hands_played".into(),
                format!(
                    "Knockout Whist has {ROUNDS} rounds and {} have been played: the game is over, start a new match",
                    before.hands_played
                ),
            )]);
        }
        let round = before.hands_played + 1;
        let mut dealt = deal::check_cards(record, table, &pack)?;
        deal::check_counts(record, table, HandSize::Each(cards_in(round)))?;
        let dealer = table.resolve(record.dealer).expect("checked with the deal");
        let turned = match (round, record.face_up.as_slice()) {
            (1, [card]) => {
                deal::check_undealt(&[*card], "face_up", &pack, &mut dealt)?;
                Some(*card)
            }
            (1, _) => {
                return Err(vec![FieldError::new(
                    "/face_up".into(),
                    "round 1: expected exactly one card, the one turned for trump after the deal (§3)"
                        .into(),
                )]);
            }
            (_, []) => None,
            (_, _) => {
                return Err(vec![FieldError::new(
                    "/face_up".into(),
                    format!(
                        "round {round}: no card is turned (the dealer names trump): leave face_up out"
                    ),
                )]);
            }
        };
        let mut adj = Adjudication::new(INFO.id, dealer, before, cards_in(round));
        adj.tally = PerSide::over(table.sides());
        let mut hand = Hand {
            table,
            round,
            play: TrickPlay::new(table, dealt.hands, dealer),
            phase: Phase::Trump,
            trump: None,
            revokers: Vec::new(),
            knocked_out: Vec::new(),
            cuts: Vec::new(),
            adj,
        };
        if let Some(card) = turned {
            // §3, KW-1: round 1's trump is the turned card's suit, and the dealer leads.
            let trump = card.suit_unchecked();
            hand.set_trump(trump);
            hand.adj.events.push(Event::new(
                "trump_turned",
                None,
                dealer,
                vec![card],
                format!(
                    "{dealer} turned {card} after the deal: {} are trump",
                    name(trump)
                ),
            ));
        }
        Ok(Box::new(hand))
    }
}

fn name(suit: Suit) -> &'static str {
    match suit {
        Suit::Spades => "spades",
        Suit::Hearts => "hearts",
        Suit::Diamonds => "diamonds",
        Suit::Clubs => "clubs",
    }
}

#[derive(Clone, Debug)]
enum Phase {
    /// Rounds 2 to 7: the dealer names trump (§3).
    Trump,
    Play,
    /// §4, KW-3: the players in `tied` cut, each once; `cut` holds the cards cut so far.
    Cut {
        tied: Vec<Seat>,
        cut: Vec<PlayedCard>,
    },
    Over,
}

#[derive(Clone)]
struct Hand {
    /// The seats still in at this round's start.
    table: Table,
    round: u32,
    play: TrickPlay,
    phase: Phase,
    trump: Option<Suit>,
    /// Seats with an established revoke this round, with the irregularity's index.
    revokers: Vec<(Seat, usize)>,
    knocked_out: Vec<Seat>,
    cuts: Vec<Vec<PlayedCard>>,
    adj: Adjudication,
}

impl Hand {
    fn set_trump(&mut self, trump: Suit) {
        self.trump = Some(trump);
        self.adj.trump = Some(trump);
        self.phase = Phase::Play;
    }

    fn judge(
        &self,
    ) -> impl Fn(&Trick, crate::cards::CardSet, Card) -> Option<crate::engine::Fault> + use<> {
        let table = self.table;
        move |trick, hand, card| must_follow_suit(table, "knockout-whist.md §3", trick, hand, card)
    }

    fn tricks(&self, seat: Seat) -> u32 {
        self.adj.tally[self.table.side(seat)].tricks
    }

    fn revoked(&self, seat: Seat) -> bool {
        self.revokers.iter().any(|r| r.0 == seat)
    }

    /// The dealer's `trump` (rounds 2 to 7).
    fn name_trump(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        called: &Called,
    ) -> Result<(), RecordError> {
        let dealer = self.adj.dealer;
        if action.seat != dealer {
            return Err(RecordError::on(
                "out_of_turn",
                index,
                action,
                format!("{dealer}, the round's dealer, names trump (§3)"),
            ));
        }
        let trump: Suit = called.0.parse().map_err(|e: String| {
            RecordError::on(
                "invalid_trump",
                index,
                action,
                format!("{e}; there is no no-trump (KW-2)"),
            )
        })?;
        self.set_trump(trump);
        self.adj.events.push(Event::new(
            "trump_named",
            index,
            dealer,
            Vec::new(),
            format!("{dealer} names {} trump and leads (§3)", name(trump)),
        ));
        Ok(())
    }

    fn close_trick(&mut self) {
        let winner = self
            .play
            .trick
            .trump_or_led_winner(self.trump, &ORDER)
            .expect("a complete trick of suited cards");
        let (trick, established) = self.play.close_trick(winner);
        for e in established {
            let seat = e.seat;
            self.revokers.push((seat, self.adj.irregularities.len()));
            self.adj.irregularities.push(e.irregularity(format!(
                "{seat} is knocked out at the end of the round whatever his tricks (knockout-whist.md §5 DEFAULT)"
            )));
        }
        self.adj.tally[self.table.side(winner)].tricks += 1;
        self.adj.tricks.push(TrickReport::new(trick, winner));
        if self.adj.tricks.len() == cards_in(self.round) {
            self.play.stop();
            self.end_of_round();
        }
    }

    /// §4, §5 DEFAULT, KW-b: who is knocked out, and whether the players left cut for the deal.
    fn end_of_round(&mut self) {
        let seats: Vec<Seat> = self.table.seats().collect();
        let offenders: Vec<Seat> = seats.iter().copied().filter(|&s| self.revoked(s)).collect();
        let knocked = |s: &Seat| self.revoked(*s) || self.tricks(*s) == 0;
        let mut survivors: Vec<Seat> = seats.iter().copied().filter(|s| !knocked(s)).collect();
        if survivors.is_empty() {
            // KW-b: the non-offenders survive even with no tricks; if every player revoked,
            // nobody is knocked out by the penalty and all cut.
            survivors = seats
                .iter()
                .copied()
                .filter(|s| !offenders.contains(s))
                .collect();
            if survivors.is_empty() {
                survivors = seats.clone();
            }
        }
        self.knocked_out = seats
            .iter()
            .copied()
            .filter(|s| !survivors.contains(s))
            .collect();
        if survivors.len() == 1 {
            self.phase = Phase::Over;
            return;
        }
        // §5: an offender's tricks are not counted when finding the next dealer.
        let counted = |s: Seat| if self.revoked(s) { 0 } else { self.tricks(s) };
        let most = survivors.iter().map(|&s| counted(s)).max().unwrap_or(0);
        let tied: Vec<Seat> = survivors
            .iter()
            .copied()
            .filter(|&s| counted(s) == most)
            .collect();
        self.phase = if tied.len() > 1 {
            Phase::Cut {
                tied,
                cut: Vec::new(),
            }
        } else {
            Phase::Over
        };
    }

    /// A `cut` while players are tied for most tricks (KW-3, KW-c, KW-e).
    fn cut(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let Phase::Cut { tied, cut, .. } = &mut self.phase else {
            unreachable!("called in the cut")
        };
        let seat = action.seat;
        let due: Vec<Seat> = tied
            .iter()
            .copied()
            .filter(|s| cut.iter().all(|c| c.seat != *s))
            .collect();
        let names = || {
            due.iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        if matches!(action.kind, Verb::Correct(_)) {
            return Err(RecordError::after_end(
                index,
                action,
                "every trick of the round is complete",
            ));
        }
        if !due.contains(&seat) {
            let why = if tied.contains(&seat) {
                format!(
                    "{seat} has cut already in this cut; {} still cut (KW-e)",
                    names()
                )
            } else {
                format!("{seat} is not tied for most tricks: {} cut (KW-3)", names())
            };
            return Err(RecordError::on("out_of_turn", index, action, why));
        }
        let Verb::Cut(called) = &action.kind else {
            return Err(RecordError::unexpected(
                index,
                action,
                format!(
                    "the round's tricks are over: {} cut for the deal (§4)",
                    names()
                ),
            ));
        };
        let card = called
            .0
            .parse::<Card>()
            .ok()
            .filter(|c| c.suit().is_some() && c.rank().is_some_and(|r| ORDER.strength(r) > 0));
        let Some(card) = card else {
            return Err(RecordError::on(
                "invalid_cut",
                index,
                action,
                format!("'{}' is not a card of the 52-card pack (KW-e)", called.0),
            ));
        };
        if cut.iter().any(|c| c.card == card) {
            return Err(RecordError::on(
                "invalid_cut",
                index,
                action,
                format!("{card} has already been cut in this cut (KW-e)"),
            ));
        }
        cut.push(PlayedCard::new(seat, card));
        if cut.len() < tied.len() {
            return Ok(());
        }
        // KW-c: the highest rank wins, suits do not count; those still equal cut again (KW-3).
        let strength = |c: &PlayedCard| ORDER.strength(c.card.rank_unchecked());
        let top = cut.iter().map(strength).max().expect("a card each");
        let best: Vec<Seat> = cut
            .iter()
            .filter(|c| strength(c) == top)
            .map(|c| c.seat)
            .collect();
        let cards = std::mem::take(cut);
        let detail = if best.len() == 1 {
            format!("{} cuts highest and deals the next round (§4)", best[0])
        } else {
            let names: Vec<String> = best.iter().map(|s| s.to_string()).collect();
            format!("{} cut equal ranks and cut again (KW-3)", names.join(", "))
        };
        self.adj.events.push(Event::new(
            "cut",
            index,
            (best.len() == 1).then(|| best[0]),
            cards.iter().map(|c| c.card).collect(),
            detail,
        ));
        self.cuts.push(cards);
        if best.len() == 1 {
            self.phase = Phase::Over;
        } else {
            *tied = best;
        }
        Ok(())
    }

    /// The seat that deals the next round: the one left, or the one with most tricks (the cut's
    /// winner when tied). KW-a: at the game's end, the winner.
    fn next_dealer(&self) -> Seat {
        if let Some(cut) = self.cuts.last() {
            let top = cut
                .iter()
                .max_by_key(|c| ORDER.strength(c.card.rank_unchecked()))
                .expect("a card each");
            return top.seat;
        }
        let counted = |s: Seat| if self.revoked(s) { 0 } else { self.tricks(s) };
        self.table
            .seats()
            .filter(|s| !self.knocked_out.contains(s))
            .max_by_key(|&s| counted(s))
            .expect("a player is left")
    }

    /// §4: the players left score one point each; the knocked out leave the table.
    fn score(&mut self) {
        let table = self.table;
        for s in table.seats() {
            if self.knocked_out.contains(&s) {
                let revoked = self.revoked(s);
                self.adj.events.push(Event::new(
                    "knocked_out",
                    None,
                    s,
                    Vec::new(),
                    if revoked {
                        format!("{s} revoked and is knocked out (§5 DEFAULT)")
                    } else {
                        format!("{s} took no trick and is knocked out (§4)")
                    },
                ));
            } else {
                self.adj
                    .score(table.side(s), 1, ScoreSource::Contract, SURVIVED, None);
            }
        }
        // KW-b: an offender saved because every player revoked.
        for &(s, at) in &self.revokers {
            if !self.knocked_out.contains(&s) {
                self.adj.irregularities[at].consequence = format!(
                    "none: every player revoked this round, so nobody is knocked out by the penalty and {s} stays in (KW-b)"
                );
            }
        }
        let dealer = self.next_dealer();
        self.adj.settle();
        let hands = self.adj.match_after.hands_played;
        let m = &mut self.adj.match_after;
        for &s in &self.knocked_out {
            m.out.insert(s, hands);
        }
        m.next_dealer = Some(dealer);
        if table.players() - self.knocked_out.len() == 1 {
            m.end_game([Side::alone(dealer)]);
        }
    }

    fn details(&self, scored: bool) -> Details {
        Details {
            round: self.round,
            cards: cards_in(self.round) as u32,
            knocked_out: if scored {
                self.knocked_out.clone()
            } else {
                Vec::new()
            },
            cuts: self.cuts.clone(),
        }
    }

    fn due(&self) -> Vec<Seat> {
        match &self.phase {
            Phase::Trump => vec![self.adj.dealer],
            Phase::Play => self.play.to_play().into_iter().collect(),
            Phase::Cut { tied, cut, .. } => tied
                .iter()
                .copied()
                .filter(|s| cut.iter().all(|c| c.seat != *s))
                .collect(),
            Phase::Over => Vec::new(),
        }
    }
}

impl HandState<Verb> for Hand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        match (&self.phase, &action.kind) {
            (Phase::Trump, Verb::Correct(_)) => {
                Err(RecordError::correct_before_play(index, action))
            }
            (Phase::Trump, Verb::Trump(called)) => {
                let called = called.clone();
                self.name_trump(index, action, &called)
            }
            (Phase::Trump, _) => Err(RecordError::out_of_phase(
                index,
                action,
                self.adj.dealer,
                &format!("{} names trump first (§3)", self.adj.dealer),
            )),
            (Phase::Play, Verb::Play(card)) => {
                self.play.play_judged(index, seat, *card, self.judge())?;
                if self.play.is_complete() {
                    self.close_trick();
                }
                Ok(())
            }
            (Phase::Play, Verb::Correct(card)) => {
                let judge = self.judge();
                self.play.correct(index, seat, *card, judge)
            }
            (Phase::Play, _) => Err(RecordError::out_of_phase(
                index,
                action,
                self.play.to_play().unwrap_or(seat),
                if self.round == 1 {
                    "round 1's trump is the turned card (KW-c): only cards (and corrections) follow"
                } else {
                    "trump is named: only cards (and corrections) follow"
                },
            )),
            (Phase::Cut { .. }, _) => self.cut(index, action),
            (Phase::Over, _) => Err(RecordError::after_end(
                index,
                action,
                "the round is over (its tricks played and any cut decided)",
            )),
        }
    }

    fn view(&self) -> TableView {
        let phase = match self.phase {
            Phase::Trump => "trump",
            Phase::Play => "play",
            Phase::Cut { .. } => "cut",
            Phase::Over => "over",
        };
        let mut view = TableView::new(phase, self.due(), &self.play, &self.adj.match_after);
        view.trump = self.trump;
        view.tally = self.adj.tally.clone();
        view.irregularities = self.adj.irregularities.clone();
        view.details = details::Details::of(self.details(false));
        view.trick_number = self.locus().trick_number;
        view
    }

    fn locus(&self) -> Locus {
        let locus = Locus::of_play(&self.play, self.due().is_empty());
        match self.phase {
            // The cut follows the round's tricks: no trick is in progress, the last is the one the
            // table shows (and a record error in the cut states, C13).
            Phase::Cut { .. } => Locus {
                trick_number: Some(self.adj.tricks.len() as u8),
                ..locus
            },
            Phase::Trump | Phase::Play | Phase::Over => locus,
        }
    }

    fn candidates(&self) -> Vec<Action<Verb>> {
        match &self.phase {
            Phase::Trump => Suit::ALL
                .iter()
                .map(|s| Action {
                    seat: self.adj.dealer,
                    kind: Verb::Trump(Called(s.letter().to_string())),
                })
                .collect(),
            Phase::Play => self.play.candidates(Verb::Play, Verb::Correct),
            Phase::Cut { .. } => {
                let pack = packs::standard52();
                self.due()
                    .into_iter()
                    .flat_map(|seat| {
                        pack.cards.iter().map(move |c| Action {
                            seat,
                            kind: Verb::Cut(Called(c.to_string())),
                        })
                    })
                    .collect()
            }
            Phase::Over => Vec::new(),
        }
    }

    fn faulted(&self, index: usize) -> bool {
        self.adj.faulted(index) || self.play.faulted(index)
    }

    fn finish(mut self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        self.adj.corrected_revokes = std::mem::take(&mut self.play.corrected);
        let ending = match &self.phase {
            Phase::Over => Ending::Over,
            Phase::Trump => Ending::Open {
                due: Some(self.adj.dealer),
                detail: format!("the record stops before {} names trump", self.adj.dealer),
            },
            Phase::Play => Ending::Open {
                due: self.play.to_play(),
                detail: format!(
                    "the record stops in trick {} of {}: every trick of the round is played out (KW-d)",
                    self.play.trick.number,
                    cards_in(self.round)
                ),
            },
            Phase::Cut { .. } => {
                let due = self.due();
                Ending::Open {
                    due: (due.len() == 1).then(|| due[0]),
                    detail: format!(
                        "the record stops in the cut for the deal: {} still cut",
                        due.iter()
                            .map(|s| s.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                }
            }
        };
        let scored = !self.adj.unscored(error, ending);
        if scored {
            self.score();
        } else {
            for i in &mut self.adj.irregularities {
                i.consequence =
                    "none: the record error leaves the round unscored (README C5)".into();
            }
        }
        self.adj.details = details::Details::of(self.details(scored));
        self.adj
    }
}
