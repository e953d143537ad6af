//! Shapes of the games to come that the eleven games do not use, carried by the engine itself
//! (issue 10): packs with copies dealt and replayed as multisets (Calypso's 208 cards at four seats,
//! Hand and Foot's 270 with ten jokers at six). The game here is a test's own: plain tricks, follow
//! suit, the highest card of the led suit wins, jokers above everything (the first joker of a trick
//! wins), one point per trick.

use arbiter::cards::{Card, CardCounts, Holding, Pack, packs};
use arbiter::engine::{
    self, Adjudication, FieldError, GameInfo, HandState, MatchState, NoDetails, Options, RankOrder,
    RecordError, Rules, ScoreSource, Table, TableView, Trick, TrickPlay, TrickReport, deal,
    must_follow_suit, trump_or_led,
};
use arbiter::record::{Action, HandRecord, Verbs};
use proptest::prelude::*;
use serde_json::json;

arbiter::verbs! {
    /// The plain game's verbs.
    #[derive(Copy)]
    enum Verb in "Plain" {
        Play(Card) = "play": "A card played to the current trick.",
        Correct(Card) = "correct": "Replaces the seat's card in the current, incomplete trick.",
    }
}

/// A plain trick game over `pack` at `seats` seats, each for himself.
struct Plain {
    info: &'static GameInfo,
    pack: fn() -> Pack,
    seats: usize,
}

fn info(id: &'static str) -> &'static GameInfo {
    Box::leak(Box::new(GameInfo {
        id,
        name: id,
        players: 4,
        seats: &[],
        partnerships: false,
        deck: "test",
        game_target: 0,
        options: &[],
        rules: "tests/engine_shapes.rs",
        irregularities: &["revoke"],
        record_errors: &[
            "out_of_turn",
            "card_not_held",
            "card_played_twice",
            "invalid_correct",
            "action_after_end",
            "incomplete_hand",
        ],
        events: &[],
        score_codes: &["tricks"],
        verbs: Verb::VERBS,
    }))
}

fn strength(led: Option<arbiter::cards::Suit>, card: Card) -> Option<u16> {
    if card == Card::JOKER {
        return Some(0x300);
    }
    trump_or_led(card, led?, None, &RankOrder::ACE_HIGH)
}

fn judge(table: Table) -> impl Fn(&Trick, CardCounts, Card) -> Option<engine::Fault> {
    move |trick, hand, card| must_follow_suit(table, "test §3", trick, hand, card)
}

impl Rules for Plain {
    type Verb = Verb;
    type Details = NoDetails;
    type Carried = NoDetails;

    fn info(&self) -> &'static GameInfo {
        self.info
    }

    fn table(&self, _: &Options) -> Table {
        Table::solo(self.seats)
    }

    fn setup(&self, _: &Options) -> deal::Setup {
        let pack = (self.pack)();
        deal::Setup {
            hand: pack.len() as usize / self.seats,
            pack,
            parts: &[],
        }
    }

    fn start(
        &self,
        record: &HandRecord<Verb>,
        _: &Options,
        before: &MatchState,
    ) -> Result<Box<dyn HandState<Verb>>, Vec<FieldError>> {
        let table = Table::solo(self.seats);
        let pack = (self.pack)();
        let dealt = deal::check_holdings::<CardCounts, _>(record, table, &pack)?;
        deal::check_whole_pack(&dealt, &pack)?;
        let tricks = pack.len() as usize / self.seats;
        Ok(Box::new(PlainHand {
            play: TrickPlay::new(table, dealt.hands, table.left(record.dealer)),
            tricks,
            adj: Adjudication::new(self.info.id, record.dealer, before, tricks),
        }))
    }
}

struct PlainHand {
    play: TrickPlay<CardCounts>,
    tricks: usize,
    adj: Adjudication,
}

impl HandState<Verb> for PlainHand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        if self.adj.tricks.len() == self.tricks {
            return Err(RecordError::after_end(index, action, "the hand is over"));
        }
        let table = self.play.table;
        match action.kind {
            Verb::Play(card) => {
                self.play
                    .play_judged(index, action.seat, card, judge(table))?;
            }
            Verb::Correct(card) => self.play.correct(index, action.seat, card, judge(table))?,
        }
        if self.play.is_complete() {
            let led = self.play.trick.led().and_then(|c| c.suit());
            let pos = self.play.trick.winner_by(|c| strength(led, c)).unwrap();
            let winner = self.play.trick.plays()[pos].seat;
            let (trick, established) = self.play.close_trick(winner);
            for e in established {
                self.adj.irregularities.push(e.irregularity("none".into()));
            }
            self.adj.tally[table.side(winner)].tricks += 1;
            self.adj.tricks.push(TrickReport::new(trick, winner));
        }
        Ok(())
    }

    fn view(&self) -> TableView {
        let mut view = TableView::new(
            "play",
            self.play.to_play().into_iter().collect(),
            &self.play,
            &self.adj.match_after,
        );
        view.add_plays(&self.play, judge(self.play.table));
        view
    }

    fn finish(self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        let mut adj = self.adj;
        let table = self.play.table;
        if let Some(e) = error {
            adj.record_error(e);
        } else if adj.tricks.len() < self.tricks {
            adj.record_error(RecordError::incomplete_hand(
                self.play.to_play(),
                "short".into(),
            ));
        } else {
            for side in table.sides() {
                let n = adj.tally[side].tricks as i32;
                adj.score(side, n, ScoreSource::Tricks, "tricks", None);
            }
            adj.settle();
        }
        adj
    }
}

fn calypso() -> Plain {
    Plain {
        info: info("test-208"),
        pack: packs::calypso208,
        seats: 4,
    }
}

fn hand_and_foot() -> Plain {
    Plain {
        info: info("test-270"),
        pack: packs::hand_and_foot270,
        seats: 6,
    }
}

/// A random deal of the whole pack, every copy to some seat, dealt round the table.
fn random_deal(game: &Plain, seed: u64) -> HandRecord {
    let pack = (game.pack)();
    let mut cards: Vec<Card> = pack
        .cards
        .iter()
        .flat_map(|c| std::iter::repeat_n(c, pack.count(c) as usize))
        .collect();
    let mut state = seed | 1;
    for i in (1..cards.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        cards.swap(i, (state % (i as u64 + 1)) as usize);
    }
    let table = Table::solo(game.seats);
    let mut deal = serde_json::Map::new();
    for seat in table.seats() {
        let hand: Vec<String> = cards
            .iter()
            .skip(seat.pos())
            .step_by(game.seats)
            .map(|c| c.to_string())
            .collect();
        deal.insert(seat.to_string(), json!(hand));
    }
    serde_json::from_value(json!({"dealer": "P1", "deal": deal})).unwrap()
}

/// Plays a deal out by the engine's own legal actions, picking by `seed`.
fn play_out(game: &Plain, mut record: HandRecord, seed: u64) -> HandRecord {
    let mut pick = seed;
    loop {
        let view = engine::legal_actions(game, &record).expect("a legal position");
        let plays: Vec<Action> = view
            .legal
            .into_iter()
            .filter(|a| a.kind.verb == "play")
            .collect();
        if plays.is_empty() {
            return record;
        }
        pick = pick
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        record
            .actions
            .push(plays[(pick >> 33) as usize % plays.len()].clone());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    /// Every copy of the pack is dealt, held and played once; identical cards are interchangeable.
    #[test]
    fn packs_with_copies_deal_and_replay(seed in any::<u64>(), big in any::<bool>()) {
        let game = if big { hand_and_foot() } else { calypso() };
        let pack = (game.pack)();
        let record = play_out(&game, random_deal(&game, seed), seed);
        let a = engine::adjudicate(&game, &record).expect("accepted");
        prop_assert!(a.record_error.is_none(), "{:?}", a.record_error);
        prop_assert!(a.irregularities.is_empty());
        prop_assert_eq!(a.tricks.len(), pack.len() as usize / game.seats);
        let mut played = CardCounts::default();
        for t in &a.tricks {
            for p in t.plays.plays() {
                played.insert(p.card);
            }
        }
        prop_assert_eq!(played, every_copy(&pack));
        let score = a.hand_score.unwrap();
        prop_assert_eq!(score.sides().map(|s| score[s]).sum::<i32>(), a.tricks.len() as i32);
    }
}

/// Every copy of `pack`, as a multiset.
fn every_copy(pack: &Pack) -> CardCounts {
    let mut all = CardCounts::default();
    for c in pack.cards.iter() {
        all.add(c, pack.count(c) as u8);
    }
    all
}

/// The four packs dealt in encoding order, 52 cards a seat: P1 holds the four copies of every spade,
/// P2 every heart, P3 every diamond, P4 every club.
fn suits_by_seat() -> serde_json::Value {
    let pack = packs::calypso208();
    let cards: Vec<String> = every_copy(&pack).iter().map(|c| c.to_string()).collect();
    let deal: serde_json::Map<String, serde_json::Value> = (0..4)
        .map(|i| (format!("P{}", i + 1), json!(cards[i * 52..(i + 1) * 52])))
        .collect();
    json!({"dealer": "P4", "deal": deal})
}

/// A seat holding four copies of AS plays all four; a fifth is a card played twice. A fifth copy in
/// the deal of a four-pack game is refused where it stands.
#[test]
fn copies_are_counted_in_deal_and_play() {
    let game = calypso();
    let mut v = suits_by_seat();
    let trick = |n: usize| {
        vec![
            json!({"seat": "P1", "play": "AS"}),
            json!({"seat": "P2", "play": format!("{}H", ["2", "3", "4", "5", "6"][n])}),
            json!({"seat": "P3", "play": format!("{}D", ["2", "3", "4", "5", "6"][n])}),
            json!({"seat": "P4", "play": format!("{}C", ["2", "3", "4", "5", "6"][n])}),
        ]
    };
    // Four tricks: P1 leads each of its aces of spades and wins, the others void in spades.
    v["actions"] = json!((0..4).flat_map(trick).collect::<Vec<_>>());
    let record: HandRecord = serde_json::from_value(v.clone()).unwrap();
    let a = engine::adjudicate(&game, &record).unwrap();
    assert_eq!(a.tricks.len(), 4);
    // At four seats P1..P4 are N E S W: P1 is position 0.
    assert!(
        a.tricks
            .iter()
            .all(|t| t.winner.map(|w| w.pos()) == Some(0))
    );
    assert_eq!(a.record_error.unwrap().code, "incomplete_hand");
    // A fifth ace of spades from P1 is one more than he held.
    v["actions"] = json!((0..5).flat_map(trick).collect::<Vec<_>>());
    let record: HandRecord = serde_json::from_value(v.clone()).unwrap();
    let e = engine::adjudicate(&game, &record)
        .unwrap()
        .record_error
        .unwrap();
    assert_eq!((e.code, e.action_index), ("card_played_twice", Some(16)));
    // A fifth ace of spades in the deal (in P2's hand, instead of a 2H) is refused there.
    v["deal"]["P2"][0] = json!("AS");
    let record: HandRecord = serde_json::from_value(v).unwrap();
    let e = engine::adjudicate(&game, &record).expect_err("refused");
    assert!(
        e.iter()
            .any(|f| f.pointer == "/deal/P2/0" && f.detail.contains("more often")),
        "{e:?}"
    );
}
