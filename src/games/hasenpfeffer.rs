//! Hasenpfeffer (`docs/rules/hasenpfeffer.md`): four players in partnerships, a 25-card pack
//! (A K Q J T 9 and a joker); six cards each and a one-card widow; one round of bidding 1–6 (the
//! joker holder is forced to 3 when all pass); the high bidder takes the widow, names trump,
//! discards and leads; the joker and both bowers are the top trumps; declarers score their tricks
//! or lose the contract, defenders score their tricks; game to 10, declarers win ties at 10.

use crate::cards::{Card, CardSet, Rank, Suit, packs};
use crate::engine::auction::{Auction, Conduct, End, NoBid, Number, Numbers, Rounds};
use crate::engine::deal::{Count, HandSize, Holds, Part, Setup};
use crate::engine::{
    Adjudication, Contract, Ending, Established, Event, Fault, FieldError, FirstDecides, GameInfo,
    HandState, Locus, MatchState, NoDetails, OptionKind, OptionSpec, Options, Outcome, RankOrder,
    RecordError, Rules, ScoreSource, Seat, Table, TableView, Trick, TrickPlay, TrickReport, deal,
};
use crate::record::{Action, HandRecord, Yes};

pub struct Hasenpfeffer;

crate::verbs! {
    /// What a record of Hasenpfeffer can say.
    #[derive(Copy)]
    pub enum Verb in "Hasenpfeffer" {
        Pass(Yes) = "pass": "A pass in the auction (value `true`).",
        Bid(Number) = "bid": "A bid: the number of tricks the bidder's side undertakes to take.",
        Trump(Suit) = "trump": "The high bidder names trump.",
        Discard(Card) = "discard": "The high bidder's discard after taking the widow.",
        Play(Card) = "play": "A card played to the current trick.",
        Correct(Card) = "correct": "Replaces the seat's card in the current, incomplete trick (a revoke correction).",
    }
}

crate::auction_calls!(Verb, Number);

static INFO: GameInfo = GameInfo {
    id: "hasenpfeffer",
    name: "Hasenpfeffer",
    tables: crate::engine::Tables(&[Table::FOUR]),
    deck: "25-card pack (A K Q J T 9 and a joker JK)",
    game_target: GAME,
    options: &[OptionSpec {
        name: "revoke_penalty",
        kind: OptionKind::Choice {
            values: &["default", "none"],
            default: "default",
        },
        description: "`default`: an established revoke by a declarer fails the contract, by a defender \
                      makes it and the defenders score nothing (the rulings' default, the text being \
                      silent); `none`: revokes are reported only.",
        rule: "hasenpfeffer.md §5, HA-b",
    }],
    rules: "docs/rules/hasenpfeffer.md",
    irregularities: &["revoke"],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    record_errors: &[
        "out_of_turn",
        "unexpected_action",
        "illegal_bid",
        "card_not_held",
        "card_played_twice",
        "invalid_correct",
        "action_after_end",
        "incomplete_hand",
    ],
    events: &["forced_bid", "hand_void", "widow_taken", "discarded"],
    score_codes: &[CONTRACT_MADE, CONTRACT_FAILED, TRICKS_CODE],
    titles: crate::engine::Titles(&[
        ("hand_void", "Hand void: no play, no score"),
        ("widow_taken", "Widow taken by the declarer"),
        ("discarded", "Card discarded after taking the widow"),
        (TRICKS_CODE, "Tricks taken"),
    ]),
};

const GAME: i32 = 10;
/// Score item codes (§4): the declarers' tricks for a made contract, minus the contract for a failed
/// one; the defenders' tricks.
const CONTRACT_MADE: &str = "contract_made";
const CONTRACT_FAILED: &str = "contract_failed";
const TRICKS_CODE: &str = "tricks";
const TRICKS: usize = 6;
const DEALT: usize = 6;
/// §1: a bid names 1 to 6 tricks; the joker holder's forced bid is 3.
const BIDS: Numbers = Numbers { low: 1, high: 6 };
const FORCED_BID: Number = Number(3);

/// §1: plain suits A K Q (J) T 9.
const PLAIN: RankOrder = RankOrder::new(&[
    Rank::Ace,
    Rank::King,
    Rank::Queen,
    Rank::Jack,
    Rank::Ten,
    Rank::Nine,
]);

/// The suit of the same colour as `suit` (its jack is the left bower).
fn partner_suit(suit: Suit) -> Suit {
    match suit {
        Suit::Spades => Suit::Clubs,
        Suit::Clubs => Suit::Spades,
        Suit::Hearts => Suit::Diamonds,
        Suit::Diamonds => Suit::Hearts,
    }
}

/// §3: the suit a card belongs to for following: the joker and the left bower are trumps.
fn suit_of(card: Card, trump: Suit) -> Suit {
    if card == Card::JOKER {
        return trump;
    }
    let suit = card.suit_unchecked();
    if card.rank_unchecked() == Rank::Jack && suit == partner_suit(trump) {
        trump
    } else {
        suit
    }
}

/// §1, §4: joker, right bower, left bower, then A K Q T 9 of trumps; else the led suit A K Q J T 9.
fn strength(card: Card, led: Suit, trump: Suit) -> Option<u16> {
    if card == Card::JOKER {
        return Some(0x210);
    }
    let suit = card.suit_unchecked();
    let rank = card.rank_unchecked();
    if rank == Rank::Jack && suit == trump {
        return Some(0x20f);
    }
    if suit_of(card, trump) == trump {
        return Some(if rank == Rank::Jack {
            0x20e
        } else {
            0x200 | PLAIN.strength(rank) as u16
        });
    }
    (suit == led).then(|| 0x100 | PLAIN.strength(rank) as u16)
}

fn of_suit(hand: CardSet, suit: Suit, trump: Suit) -> CardSet {
    hand.iter().filter(|&c| suit_of(c, trump) == suit).collect()
}

/// §3: follow the led suit (the joker and left bower count as trumps) if able.
fn judge(trump: Suit, trick: &Trick, hand: CardSet, card: Card) -> Option<Fault> {
    let led = suit_of(trick.led()?, trump);
    let holding = of_suit(hand, led, trump);
    if holding.is_empty() || suit_of(card, trump) == led {
        return None;
    }
    let seat = trick.next_seat(Table::FOUR);
    Some(Fault::new(
        "revoke",
        "hasenpfeffer.md §3",
        format!(
            "{seat} played {card} on a {} lead while holding {}",
            if led == trump {
                "trump".to_string()
            } else {
                led.letter().to_string()
            },
            holding
        ),
    ))
}

impl Rules for Hasenpfeffer {
    type Verb = Verb;
    type Details = NoDetails;
    type Carried = NoDetails;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn setup(&self, _: &Options) -> Setup {
        Setup {
            pack: packs::euchre24_joker(),
            hand: HandSize::Each(DEALT),
            counted_by: None,
            parts: &[Holds {
                part: Part::Widow,
                what: "the widow, the 25th card",
                count: Count::Between(1, 1),
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
        let pack = packs::euchre24_joker();
        let mut dealt = deal::check_cards(record, Table::FOUR, &pack)?;
        // §2: the 25th card is the widow, recorded as the one-card stock (`setup`).
        let widow = record.stock[0];
        deal::check_undealt(&record.stock, "stock", &pack, &mut dealt)?;
        deal::check_whole_pack(&dealt, &pack)?;
        let dealer = record.dealer;
        let adj = Adjudication::new(INFO.id, dealer, before, TRICKS);
        // §2.2, HP-1, HA-c: one round from the dealer's left, each bid higher. §2.3, HP-2: all
        // passing, the joker holder is forced to 3; with the joker in the widow nobody is.
        let joker_holder = Table::FOUR
            .seats()
            .find(|s| dealt.hands[s.pos()].contains(Card::JOKER));
        let conduct = Conduct {
            rounds: Rounds::One,
            equal: None,
            no_bid: match joker_holder {
                Some(holder) => NoBid::Compelled(holder, FORCED_BID),
                None => NoBid::Passed,
            },
            rule: "hasenpfeffer.md §2.2, §2.3, HP-1, HP-2, HA-c",
        };
        Ok(Box::new(HasenpfefferHand {
            phase: Phase::Bidding,
            auction: Auction::new(Table::FOUR, Table::FOUR.left(dealer), BIDS, conduct),
            high: None,
            widow,
            trump: Suit::Spades,
            play: TrickPlay::new(Table::FOUR, dealt.hands, Table::FOUR.left(dealer)),
            revoke: FirstDecides::default(),
            penalties: options.choice("revoke_penalty") == "default",
            adj,
        }))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// §2.2: one round from the dealer's left.
    Bidding,
    /// §2.3: all passed; the joker holder is the high bidder at 3 (the record may show the bid).
    Forced,
    Trump,
    Discard,
    Play,
    Over,
}

#[derive(Clone)]
struct HasenpfefferHand {
    phase: Phase,
    auction: Auction<Numbers>,
    /// The contract once the auction is over: the declarer and his bid.
    high: Option<(Seat, u8)>,
    widow: Card,
    trump: Suit,
    play: TrickPlay,
    /// The first established revoke: the offenders' side (C7: it decides the hand).
    revoke: FirstDecides,
    penalties: bool,
    adj: Adjudication,
}

impl HasenpfefferHand {
    fn judge(&self) -> impl Fn(&Trick, CardSet, Card) -> Option<Fault> + use<> {
        let trump = self.trump;
        move |trick, hand, card| judge(trump, trick, hand, card)
    }

    /// The seat due to act before the play (README C12: checked before the verb).
    fn due(&self) -> Option<Seat> {
        match self.phase {
            Phase::Bidding => self.auction.due(),
            Phase::Forced | Phase::Trump | Phase::Discard => self.high.map(|(seat, _)| seat),
            Phase::Play => self.play.to_play(),
            Phase::Over => None,
        }
    }

    /// An action that does not fit the phase (README C11, C12), `expected` saying what is due.
    fn out_of_phase(&self, index: usize, action: &Action<Verb>, expected: &str) -> RecordError {
        RecordError::out_of_phase(index, action, self.due().unwrap_or(action.seat), expected)
    }

    fn bid(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        match self.auction.apply(index, action)? {
            None => {}
            Some(End::Won { declarer, bid }) => {
                self.high = Some((declarer, bid.0));
                self.phase = Phase::Trump;
            }
            // §2.3, §4: all passed and the joker is the widow: nobody is forced; the hand is void.
            // (A joker widow with a bid is simply taken by the high bidder.)
            Some(End::Passed) => {
                self.adj.outcome = Outcome::Void;
                self.phase = Phase::Over;
                self.adj.events.push(Event::new(
                    "hand_void",
                    index,
                    action.seat,
                    vec![self.widow],
                    "all four passed and the joker is the widow card: the hand is void, \
                             no score; the next dealer deals (§2.3, §4)"
                        .into(),
                ));
            }
            Some(End::Compelled { declarer, bid }) => {
                self.high = Some((declarer, bid.0));
                self.phase = Phase::Forced;
                let detail = format!(
                    "all four passed: {declarer}, who holds the joker, is the high bidder at {bid} (§2.3, HP-2)"
                );
                let event = Event::new("forced_bid", index, declarer, vec![Card::JOKER], detail);
                self.adj.events.push(event);
            }
        }
        Ok(())
    }

    fn close_trick(&mut self) {
        let trump = self.trump;
        let led = suit_of(self.play.trick.led().expect("complete trick"), trump);
        let pos = self
            .play
            .trick
            .winner_by(|c| strength(c, led, trump))
            .expect("a led card always ranks");
        let winner = self.play.trick.plays()[pos].seat;
        let (trick, established) = self.play.close_trick(winner);
        for e in established {
            self.revoke_established(e);
        }
        self.adj.tally[Table::FOUR.side(winner)].tricks += 1;
        self.adj.tricks.push(TrickReport::new(trick, winner));
        if self.adj.tricks.len() == TRICKS {
            self.play.stop();
            self.phase = Phase::Over;
        }
    }

    /// §5 DEFAULT: the first established revoke decides the contract (C7); later ones are reported.
    fn revoke_established(&mut self, e: Established) {
        let side = Table::FOUR.side(e.seat);
        let declarers = Table::FOUR.side(self.high.expect("play follows the auction").0);
        let consequence = if !self.penalties {
            "reported only: the option revoke_penalty is none".to_string()
        } else if let Some(consequence) = self.revoke.offence(side, e.action_index, e.fault.code) {
            consequence
        } else if side == declarers {
            "DEFAULT (text silent): the declarers' contract fails and they lose its value; the defenders score their tricks (hasenpfeffer.md §5, HA-b)".to_string()
        } else {
            "DEFAULT (text silent): the contract counts as made, the declarers scoring at least its value, and the defenders score nothing (hasenpfeffer.md §5, HA-b)".to_string()
        };
        self.adj.irregularities.push(e.irregularity(consequence));
    }
}

impl HandState<Verb> for HasenpfefferHand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        match self.phase {
            Phase::Bidding => self.bid(index, action),
            Phase::Forced => {
                let (holder, _) = self.high.expect("forced bid set");
                match action.kind {
                    // The record may show the forced bid, once; the one round of bidding is over,
                    // so the holder's only call is the forced 3.
                    Verb::Bid(_) | Verb::Pass(_) if seat == holder => {
                        self.auction.apply(index, action)?;
                        self.phase = Phase::Trump;
                        Ok(())
                    }
                    Verb::Trump(_) if seat == holder => {
                        self.phase = Phase::Trump;
                        self.apply(index, action)
                    }
                    _ => Err(self.out_of_phase(
                        index,
                        action,
                        &format!("after four passes {holder}, the joker holder, bids {FORCED_BID} and names trump (§2.3)"),
                    )),
                }
            }
            Phase::Trump => {
                let (declarer, bid) = self.high.expect("a high bid");
                match action.kind {
                    Verb::Trump(suit) if seat == declarer => {
                        self.trump = suit;
                        self.adj.trump = Some(suit);
                        let mut contract = Contract::new(declarer, Table::FOUR.side(declarer));
                        contract.bid = Some(bid.into());
                        contract.target = Some(bid as i32);
                        self.adj.contract = Some(contract);
                        // §2.4: the high bidder takes the widow, then discards.
                        self.play.hand_mut(declarer).insert(self.widow);
                        self.adj.events.push(Event::new(
                            "widow_taken",
                            index,
                            declarer,
                            vec![self.widow],
                            format!(
                                "{declarer} named trump and took the widow {} (§2.4)",
                                self.widow
                            ),
                        ));
                        self.phase = Phase::Discard;
                        Ok(())
                    }
                    _ => Err(self.out_of_phase(
                        index,
                        action,
                        &format!("{declarer}, the high bidder, names trump (§2.4)"),
                    )),
                }
            }
            Phase::Discard => {
                let (declarer, _) = self.high.expect("a high bid");
                match action.kind {
                    Verb::Discard(card) if seat == declarer => {
                        self.play.give_up(index, seat, card, "discard")?;
                        self.adj.events.push(Event::new(
                            "discarded",
                            index,
                            declarer,
                            vec![card],
                            format!("{declarer} discarded {card} face down (HP-3)"),
                        ));
                        // §1: the high bidder leads.
                        self.play.lead_next(declarer);
                        self.phase = Phase::Play;
                        Ok(())
                    }
                    _ => Err(self.out_of_phase(
                        index,
                        action,
                        &format!("{declarer} discards one card after taking the widow (§2.4)"),
                    )),
                }
            }
            Phase::Play => match action.kind {
                Verb::Play(card) => {
                    self.play.play_judged(index, seat, card, self.judge())?;
                    if self.play.is_complete() {
                        self.close_trick();
                    }
                    Ok(())
                }
                Verb::Correct(card) => {
                    let judge = self.judge();
                    self.play.correct(index, seat, card, judge)
                }
                _ => Err(self.out_of_phase(
                    index,
                    action,
                    &format!("a card is due to trick {}", self.play.trick.number),
                )),
            },
            Phase::Over => Err(RecordError::after_end(
                index,
                action,
                if self.adj.outcome == Outcome::Void {
                    "all four passed with the joker in the widow: the hand is void"
                } else {
                    "all six tricks have been played"
                },
            )),
        }
    }

    fn view(&self) -> TableView {
        let (phase, to_act): (&'static str, Vec<Seat>) = match self.phase {
            Phase::Bidding => ("bidding", self.auction.due().into_iter().collect()),
            Phase::Forced | Phase::Trump => ("trump", vec![self.high.expect("bid").0]),
            Phase::Discard => ("discard", vec![self.high.expect("bid").0]),
            Phase::Play => ("play", self.play.to_play().into_iter().collect()),
            Phase::Over => ("over", vec![]),
        };
        let mut view = TableView::new(phase, to_act.clone(), &self.play, &self.adj.match_after);
        view.trump = self.adj.trump;
        view.tally = self.adj.tally.clone();
        view.irregularities = self.adj.irregularities.clone();
        view
    }

    fn locus(&self) -> Locus {
        Locus::of_play(&self.play, self.due().is_none())
    }

    fn candidates(&self) -> Vec<Action<Verb>> {
        let trumps = |seat| {
            Suit::ALL.map(|suit| Action {
                seat,
                kind: Verb::Trump(suit),
            })
        };
        match (self.phase, self.due()) {
            (Phase::Bidding, _) => self.auction.candidates(),
            // §2.3: the record may show the forced bid of 3 before the trump.
            (Phase::Forced, Some(seat)) => {
                let mut out = self.auction.candidates();
                out.extend(trumps(seat));
                out
            }
            (Phase::Trump, Some(seat)) => trumps(seat).to_vec(),
            // The declarer's hand includes the widow by now.
            (Phase::Discard, Some(seat)) => self
                .play
                .hand(seat)
                .iter()
                .map(|card| Action {
                    seat,
                    kind: Verb::Discard(card),
                })
                .collect(),
            (Phase::Play, _) => self.play.candidates(Verb::Play, Verb::Correct),
            _ => Vec::new(),
        }
    }

    fn faulted(&self, index: usize) -> bool {
        self.adj.faulted(index) || self.play.faulted(index)
    }

    fn finish(mut self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        let ending = if self.phase == Phase::Over || self.adj.outcome == Outcome::Void {
            Ending::Over
        } else {
            // README C9: the revoke penalty needs the whole hand's tricks, so the record must go on.
            Ending::Open {
                due: self.due(),
                detail: format!(
                    "the record stops before the hand is over ({} of {TRICKS} tricks played)",
                    self.adj.tricks.len()
                ),
            }
        };
        let (high, revoke) = (self.high, self.revoke);
        self.adj.corrected_revokes = std::mem::take(&mut self.play.corrected);
        self.adj
            .conclude(error, ending, |adj| score(adj, high, revoke));
        self.adj
    }
}

/// Rules on a decided hand: void (§4), or played to the sixth trick.
fn score(adj: &mut Adjudication, high: Option<(Seat, u8)>, revoke: FirstDecides) {
    let dealer = adj.dealer;
    if adj.outcome == Outcome::Void {
        // §4: no score (no part, so a hand score of nothing); the next dealer deals.
        adj.settle();
        adj.match_after.next_dealer = Some(Table::FOUR.left(dealer));
        return;
    }
    let (declarer, bid) = high.expect("a played hand has a contract");
    let (declarers, defenders) = (
        Table::FOUR.side(declarer),
        Table::FOUR.side(declarer).other(),
    );
    let c = bid as i32;
    let taken = adj.tally[declarers].tricks as i32;
    let defended = adj.tally[defenders].tricks as i32;
    // §4, the hand as played: the declarers score their tricks or lose the contract; the
    // defenders score their tricks (a part of nothing is not listed).
    let made_in_play = taken >= c;
    if made_in_play {
        adj.score(declarers, taken, ScoreSource::Contract, CONTRACT_MADE, None);
    } else {
        adj.score(declarers, -c, ScoreSource::Contract, CONTRACT_FAILED, None);
    }
    if defended != 0 {
        adj.score(defenders, defended, ScoreSource::Tricks, TRICKS_CODE, None);
    }
    // §5 DEFAULT and HA-b: a revoke by a declarer fails the contract (−c, the defenders keep
    // their tricks), by a defender makes it (max(tricks, c), the defenders score nothing). The
    // penalty is the change it makes to the hand as played, side by side.
    let made = match revoke.decided() {
        None => made_in_play,
        Some((offenders, at)) => {
            let i = adj
                .irregularities
                .iter()
                .position(|r| r.action_index == Some(at))
                .expect("the deciding revoke is reported");
            let declarers_played = if made_in_play { taken } else { -c };
            let (declarers_ruled, defenders_ruled) = if offenders == declarers {
                (-c, defended)
            } else {
                (taken.max(c), 0)
            };
            for (side, ruled, played) in [
                (declarers, declarers_ruled, declarers_played),
                (defenders, defenders_ruled, defended),
            ] {
                if ruled != played {
                    adj.penalize(i, side, ruled - played);
                }
            }
            offenders != declarers
        }
    };
    if let Some(contract) = &mut adj.contract {
        contract.made = Some(made);
    }
    adj.settle();
    let m = &mut adj.match_after;
    m.next_dealer = Some(Table::FOUR.left(dealer));
    // §4, HP-4, HA-a: a side at 10 or more wins; both there, the declarers win.
    let winner = if m.scores[declarers] >= GAME {
        Some(declarers)
    } else if m.scores[defenders] >= GAME {
        Some(defenders)
    } else {
        None
    };
    if let Some(w) = winner {
        m.end_game([w]);
    }
}
