//! Hand and Foot: taking the discard pile (§3.1) names cards from hand twice over, in `with` (the
//! top card's meld) and in `melds` (further melds laid at once). Every card named must be held,
//! counted over both (README C12), and one that is not is refused at its own pointer, before any
//! meld is judged: the random hands' takes, spoiled one card at a time.

mod common;

use arbiter::engine;
use arbiter::record::HandRecord;
use common::random::random_hand;
use serde_json::Value;

/// A random legal hand with a take of the discard pile that lays further melds, and that take's
/// action index.
fn a_take_with_melds() -> (HandRecord, usize) {
    let game = arbiter::games::find("hand-and-foot").unwrap();
    for seed in 1..200 {
        let Some(record) = random_hand(game, seed) else {
            continue;
        };
        let take = record.actions.iter().position(|a| {
            a.kind.verb == "take_pile"
                && a.kind.value["melds"]
                    .as_array()
                    .is_some_and(|m| !m.is_empty())
        });
        if let Some(i) = take {
            return (record, i);
        }
    }
    panic!("no random hand takes the pile with further melds");
}

/// Where `record` with take `i`'s value changed by `spoil` is refused for a card not held (README
/// C12): the card's place in the list at `list` (the take's field, such as `melds/0`).
fn refused_at(record: &HandRecord, i: usize, list: &str, spoil: impl Fn(&mut Value)) -> usize {
    let mut spoiled = record.clone();
    spoiled.actions.truncate(i + 1);
    spoil(&mut spoiled.actions[i].kind.value);
    let game = arbiter::games::find("hand-and-foot").unwrap();
    let ruling = engine::adjudicate(game, &spoiled).unwrap();
    let error = ruling.record_error.expect("a record error");
    assert!(
        ["card_not_held", "card_played_twice"].contains(&error.code),
        "{}",
        error.code
    );
    let prefix = format!("/actions/{i}/take_pile/{list}/");
    error
        .pointer
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("{} is not in {prefix}", error.pointer))
        .parse()
        .unwrap()
}

/// Ten more copies of `list`'s first card than it names: more than the five packs and their ten
/// jokers hold of any card.
fn named_ten_more_times(list: &mut Value) {
    let cards = list.as_array_mut().unwrap();
    let card = cards[0].clone();
    cards.extend(std::iter::repeat_n(card, 10));
}

#[test]
fn a_card_not_held_in_a_further_meld_is_refused_at_its_place_in_that_meld() {
    let (record, i) = a_take_with_melds();
    let named = record.actions[i].kind.value["melds"][0]
        .as_array()
        .unwrap()
        .len();
    let j = refused_at(&record, i, "melds/0", |v| {
        named_ten_more_times(&mut v["melds"][0])
    });
    // The cards the legal take named are held: the first refused is one of the copies added.
    assert!(j >= named, "{j}: only copies from {named} on are not held");
}

#[test]
fn a_card_not_held_in_the_top_cards_meld_is_refused_first() {
    let (record, i) = a_take_with_melds();
    let named = record.actions[i].kind.value["with"]
        .as_array()
        .unwrap()
        .len();
    // Both lists spoiled: `with` is checked first.
    let j = refused_at(&record, i, "with", |v| {
        named_ten_more_times(&mut v["melds"][0]);
        named_ten_more_times(&mut v["with"]);
    });
    assert!(j >= named, "{j}: only copies from {named} on are not held");
}

/// The cards of both lists are counted together: a card named in `with` and again in a further
/// meld, more often in all than the taker holds it (though neither list alone names it more
/// often), is refused in the meld.
#[test]
fn a_card_named_in_both_lists_more_often_than_held_is_refused_in_the_meld() {
    let game = arbiter::games::find("hand-and-foot").unwrap();
    let (record, i) = a_take_with_melds();
    let mut before = record.clone();
    before.actions.truncate(i);
    let view = engine::legal_actions(game, &before).unwrap();
    let value = &record.actions[i].kind.value;
    let count = |list: &Value, card: &Value| {
        list.as_array()
            .unwrap()
            .iter()
            .filter(|c| *c == card)
            .count()
    };
    let card = value["with"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| count(&value["melds"][0], c) < count(&value["with"], c))
        .expect("a card of `with` the first further meld names less often")
        .clone();
    let held = view
        .hand
        .iter()
        .filter(|c| Value::String(c.to_string()) == card)
        .count();
    // The meld then names it at most `held` times (it named it fewer times than `with` did), and
    // both lists together more than `held` times: `held + 1` besides the meld's own copies.
    let more = held - count(&value["with"], &card) + 1;
    let named = value["melds"][0].as_array().unwrap().len();
    let j = refused_at(&record, i, "melds/0", |v| {
        let meld = v["melds"][0].as_array_mut().unwrap();
        meld.extend(std::iter::repeat_n(card.clone(), more));
    });
    // The copy refused is the one past `held`: `with`'s copies come first, then the meld's.
    let in_meld = count(&value["melds"][0], &card);
    assert_eq!(j, named + more - in_meld - 1);
}
