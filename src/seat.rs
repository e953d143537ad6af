//! Seats, turn order and sides (`shared/rules/README.md`, "Seats and direction").

use std::fmt;
use std::str::FromStr;
use utoipa::PartialSchema;

/// A seat at the table: `N E S W` at four-player tables, `P1`..`P7` otherwise
/// (at a four-player table `P1..P4` are accepted as `N E S W`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Seat(u8);

const NUMBERED: u8 = 16;

impl Seat {
    pub const N: Seat = Seat(0);
    pub const E: Seat = Seat(1);
    pub const S: Seat = Seat(2);
    pub const W: Seat = Seat(3);
    pub const COMPASS: [Seat; 4] = [Seat::N, Seat::E, Seat::S, Seat::W];

    /// Position clockwise from the table's first seat (N or P1).
    pub const fn pos(self) -> usize {
        (self.0 & (NUMBERED - 1)) as usize
    }

    fn numbered(pos: usize) -> Seat {
        Seat(NUMBERED + pos as u8)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 >= NUMBERED {
            write!(f, "P{}", self.pos() + 1)
        } else {
            f.write_str(["N", "E", "S", "W"][self.pos()])
        }
    }
}

impl fmt::Debug for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Seat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "N" => Ok(Seat::N),
            "E" => Ok(Seat::E),
            "S" => Ok(Seat::S),
            "W" => Ok(Seat::W),
            _ => s
                .strip_prefix('P')
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|n| (1..=7).contains(n))
                .map(|n| Seat::numbered(n - 1))
                .ok_or_else(|| format!("'{s}' is not a seat: expected N, E, S, W (or P1..P7)")),
        }
    }
}

crate::cards::serde_as_string!(Seat);

impl utoipa::PartialSchema for Seat {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .pattern(Some("^([NESW]|P[1-7])$"))
            .description(Some(
                "A seat: N E S W clockwise at four-player tables, P1..P7 otherwise.",
            ))
            .examples([serde_json::json!("N")])
            .into()
    }
}

impl utoipa::ToSchema for Seat {}

/// The seats of one game's table, in clockwise order, and how they play and score.
#[derive(Clone, Copy, Debug)]
pub struct Table {
    pub size: usize,
    /// Partners sit opposite and score together: N–S and E–W at four seats, the three pairs
    /// P1+P4, P2+P5, P3+P6 at six (six-player Zetema); otherwise each seat is its own side.
    pub partnerships: bool,
    /// Play passes to the right (counter-clockwise), as in Truco and Tresette's traditional option.
    pub counterclockwise: bool,
}

impl Table {
    /// Four players in partnerships, clockwise.
    pub const FOUR: Table = Table {
        size: 4,
        partnerships: true,
        counterclockwise: false,
    };

    /// `size` players each for himself, clockwise.
    pub const fn solo(size: usize) -> Table {
        Table {
            size,
            partnerships: false,
            counterclockwise: false,
        }
    }

    /// The same table with play passing to the right.
    pub const fn counterclockwise(self) -> Table {
        Table {
            counterclockwise: true,
            ..self
        }
    }

    /// The seat at `pos` (taken modulo the table size).
    pub fn seat(self, pos: usize) -> Seat {
        let pos = pos % self.size;
        if self.size == 4 {
            Seat::COMPASS[pos]
        } else {
            Seat::numbered(pos)
        }
    }

    /// The seat as this table names it, or `None` when the table has no such seat.
    pub fn resolve(self, seat: Seat) -> Option<Seat> {
        let numbered = seat.0 >= NUMBERED;
        let ok = seat.pos() < self.size && (numbered || self.size == 4);
        ok.then(|| self.seat(seat.pos()))
    }

    /// The next seat clockwise ("left").
    pub fn left(self, seat: Seat) -> Seat {
        self.seat(seat.pos() + 1)
    }

    /// The previous seat clockwise ("right").
    pub fn right(self, seat: Seat) -> Seat {
        self.seat(seat.pos() + self.size - 1)
    }

    /// The seat after `seat` in the direction of play (and of the deal and the auction).
    pub fn next(self, seat: Seat) -> Seat {
        if self.counterclockwise {
            self.right(seat)
        } else {
            self.left(seat)
        }
    }

    pub fn seats(self) -> impl Iterator<Item = Seat> {
        (0..self.size).map(move |p| self.seat(p))
    }

    /// Six players in three pairs, partners opposite (P1+P4, P2+P5, P3+P6), clockwise.
    pub const SIX_IN_PAIRS: Table = Table {
        size: 6,
        partnerships: true,
        counterclockwise: false,
    };

    /// The side `seat` scores for.
    pub fn side(self, seat: Seat) -> Side {
        match (self.partnerships, self.size) {
            (true, 4) => Side::BOTH[seat.pos() % 2],
            (true, _) => Side::pair(seat.pos() % (self.size / 2)),
            (false, _) => Side::player(seat.pos()),
        }
    }

    /// The sides that score at this table.
    pub fn sides(self) -> impl Iterator<Item = Side> {
        let n = if self.partnerships {
            self.size / 2
        } else {
            self.size
        };
        (0..n).map(move |i| self.side(self.seat(i)))
    }

    /// The seats scoring for `side`.
    pub fn members(self, side: Side) -> impl Iterator<Item = Seat> {
        self.seats().filter(move |&s| self.side(s) == side)
    }

    /// Seat names for messages: "N, E, S, W".
    pub fn names(self) -> String {
        self.seats()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Most players that score alone at one table (seats `P1`..`P7`).
const MAX_SOLO: usize = 7;
/// The pairs of a six-seat table in partnerships.
const PAIRS: usize = 3;
const FIRST_PAIR: u8 = 2 + MAX_SOLO as u8;
const SIDES: usize = 2 + MAX_SOLO + PAIRS;

/// A scoring side: a partnership (`NS`, `EW` at four seats; `P1+P4`, `P2+P5`, `P3+P6` at six), or in
/// a game played each for himself, one player (`P1`, `P2`, ..., named like the seat).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Side(u8);

impl Side {
    pub const NS: Side = Side(0);
    pub const EW: Side = Side(1);
    pub const BOTH: [Side; 2] = [Side::NS, Side::EW];

    /// The side of the player at table position `pos` in a game without partnerships.
    pub fn player(pos: usize) -> Side {
        Side(2 + (pos % MAX_SOLO) as u8)
    }

    /// The pair of partners at six seats whose first seat is at position `first` (0, 1 or 2).
    pub fn pair(first: usize) -> Side {
        Side(FIRST_PAIR + (first % PAIRS) as u8)
    }

    /// The opposing partnership (partnership sides only).
    pub fn other(self) -> Side {
        debug_assert!(self.0 < 2, "{self} is a player, not a partnership");
        Side(self.0 ^ 1)
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// "N–S" / "E–W" / "P1", as a director says it.
    pub fn spoken(self) -> String {
        match self.0 {
            0 => "N–S".into(),
            1 => "E–W".into(),
            _ => self.to_string(),
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            0 => f.write_str("NS"),
            1 => f.write_str("EW"),
            n if n >= FIRST_PAIR => {
                let first = n - FIRST_PAIR + 1;
                write!(f, "P{first}+P{}", first + PAIRS as u8)
            }
            n => write!(f, "P{}", n - 1),
        }
    }
}

impl FromStr for Side {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "NS" => Ok(Side::NS),
            "EW" => Ok(Side::EW),
            "P1+P4" => Ok(Side::pair(0)),
            "P2+P5" => Ok(Side::pair(1)),
            "P3+P6" => Ok(Side::pair(2)),
            _ => s
                .strip_prefix('P')
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|n| (1..=MAX_SOLO).contains(n))
                .map(|n| Side::player(n - 1))
                .ok_or_else(|| {
                    format!(
                        "'{s}' is not a side: expected NS or EW (P1..P7 where each plays alone; P1+P4, P2+P5, P3+P6 for six in pairs)"
                    )
                }),
        }
    }
}

crate::cards::serde_as_string!(Side);

impl utoipa::PartialSchema for Side {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .pattern(Some("^(NS|EW|P[1-7]|P1\\+P4|P2\\+P5|P3\\+P6)$"))
            .description(Some(
                "A scoring side: NS (North–South) or EW (East–West); P1..P7 in games played each for himself; \
                 P1+P4, P2+P5, P3+P6 for six players in pairs.",
            ))
            .into()
    }
}

impl utoipa::ToSchema for Side {}

/// A value per side in play, serialized as `{"NS": .., "EW": ..}` (or `{"P1": .., "P2": ..}`).
/// A new value covers the two partnerships; `over` names other sides. Writing a side adds it.
#[derive(Clone, Copy, Debug)]
pub struct PerSide<T> {
    values: [T; SIDES],
    /// Bit per side in play.
    present: u16,
}

impl<T: Default> Default for PerSide<T> {
    fn default() -> Self {
        PerSide {
            values: std::array::from_fn(|_| T::default()),
            present: 0b11,
        }
    }
}

impl<T: Default> PerSide<T> {
    /// Default values for each of `sides`.
    pub fn over(sides: impl IntoIterator<Item = Side>) -> PerSide<T> {
        let mut out = PerSide {
            values: std::array::from_fn(|_| T::default()),
            present: 0,
        };
        for s in sides {
            out.present |= 1 << s.0;
        }
        out
    }

    /// The sides in play, in order.
    pub fn sides(&self) -> impl Iterator<Item = Side> + '_ {
        (0..SIDES as u8)
            .filter(|i| self.present >> i & 1 == 1)
            .map(Side)
    }
}

impl<T: Default + Clone + PartialEq> PerSide<T> {
    /// The same values over `sides`; `Err(side)` names a side outside them with a value.
    pub fn restrict(&self, sides: impl IntoIterator<Item = Side>) -> Result<PerSide<T>, Side> {
        let mut out = PerSide::over(sides);
        for s in self.sides() {
            if out.present >> s.0 & 1 == 1 {
                out.values[s.index()] = self.values[s.index()].clone();
            } else if self.values[s.index()] != T::default() {
                return Err(s);
            }
        }
        Ok(out)
    }
}

/// Equal values side by side; a side absent from one counts as the default value.
impl<T: Default + PartialEq> PartialEq for PerSide<T> {
    fn eq(&self, other: &Self) -> bool {
        self.values == other.values
    }
}

impl<T: Default + Eq> Eq for PerSide<T> {}

impl<T> std::ops::Index<Side> for PerSide<T> {
    type Output = T;
    fn index(&self, side: Side) -> &T {
        &self.values[side.index()]
    }
}

impl<T> std::ops::IndexMut<Side> for PerSide<T> {
    fn index_mut(&mut self, side: Side) -> &mut T {
        self.present |= 1 << side.0;
        &mut self.values[side.index()]
    }
}

impl<T: serde::Serialize + Default> serde::Serialize for PerSide<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.sides().map(|side| (side, &self.values[side.index()])))
    }
}

impl<'de, T: serde::Deserialize<'de> + Default> serde::Deserialize<'de> for PerSide<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map = std::collections::BTreeMap::<Side, T>::deserialize(d)?;
        // Exactly the sides given: a game's table fills in (or refuses) the others.
        let mut out = PerSide::<T>::over([]);
        for (side, v) in map {
            out[side] = v;
        }
        Ok(out)
    }
}

impl<T: utoipa::ToSchema> utoipa::ToSchema for PerSide<T> {
    fn name() -> std::borrow::Cow<'static, str> {
        format!("PerSide_{}", T::name()).into()
    }
}

// utoipa derives `PartialSchema` from this; it lets `#[schema(inline)]` fields expand to the schema.
impl<T: utoipa::ToSchema> utoipa::__dev::ComposeSchema for PerSide<T> {
    fn compose(
        _generics: Vec<utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>>,
    ) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .property_names(Some(Side::schema()))
            .additional_properties(Some(T::schema()))
            .description(Some(
                "One value per side in play: NS and EW in partnership games, P1, P2, ... where each plays alone.",
            ))
            .into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_order_and_sides() {
        let t = Table::FOUR;
        assert_eq!(t.left(Seat::W), Seat::N);
        assert_eq!(t.right(Seat::N), Seat::W);
        assert_eq!(t.side(Seat::E), Side::EW);
        assert_eq!(t.resolve("P3".parse().unwrap()), Some(Seat::S));
        let three = Table::solo(3);
        assert_eq!(three.side("P2".parse().unwrap()).to_string(), "P2");
        assert_eq!(three.sides().count(), 3);
        assert_eq!(Table::FOUR.counterclockwise().next(Seat::N), Seat::W);
        assert_eq!(three.resolve(Seat::N), None);
        assert_eq!(three.left("P3".parse().unwrap()).to_string(), "P1");
        assert!("X".parse::<Seat>().is_err());
    }

    /// Issue 10: three pairs at six seats, partners opposite (README "Seats": P1+P4, P2+P5, P3+P6).
    #[test]
    fn six_seats_in_three_pairs() {
        let t = Table::SIX_IN_PAIRS;
        let seat = |s: &str| s.parse::<Seat>().unwrap();
        let names: Vec<String> = t.sides().map(|s| s.to_string()).collect();
        assert_eq!(names, ["P1+P4", "P2+P5", "P3+P6"]);
        assert_eq!(t.side(seat("P5")), t.side(seat("P2")));
        assert_ne!(t.side(seat("P1")), t.side(seat("P2")));
        assert_eq!(
            t.members(Side::pair(2))
                .map(|s| s.to_string())
                .collect::<Vec<_>>(),
            ["P3", "P6"]
        );
        for side in t.sides() {
            assert_eq!(side.to_string().parse::<Side>(), Ok(side));
        }
        let scores: PerSide<i32> = serde_json::from_str(r#"{"P2+P5": 7}"#).unwrap();
        assert_eq!(scores[Side::pair(1)], 7);
        assert_eq!(scores.restrict(Table::FOUR.sides()), Err(Side::pair(1)));
        assert_eq!(t.left(seat("P6")), seat("P1"));
    }
}
