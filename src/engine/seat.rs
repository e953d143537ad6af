//! Seats, turn order and sides (`shared/rules/README.md`, "Seats and direction").

use std::fmt;
use std::str::FromStr;

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

    /// The partnership of a four-player seat: N–S or E–W.
    pub const fn side(self) -> Side {
        if self.pos().is_multiple_of(2) {
            Side::NS
        } else {
            Side::EW
        }
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

/// The seats of one game's table, in clockwise order.
#[derive(Clone, Copy, Debug)]
pub struct Table {
    pub size: usize,
}

impl Table {
    pub const FOUR: Table = Table { size: 4 };

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

    pub fn seats(self) -> impl Iterator<Item = Seat> {
        (0..self.size).map(move |p| self.seat(p))
    }

    /// Seat names for messages: "N, E, S, W".
    pub fn names(self) -> String {
        self.seats()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A scoring side: a partnership (`NS`, `EW`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Side {
    NS,
    EW,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::NS, Side::EW];

    pub fn other(self) -> Side {
        match self {
            Side::NS => Side::EW,
            Side::EW => Side::NS,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    /// "N–S" / "E–W", as a director says it.
    pub fn spoken(self) -> &'static str {
        match self {
            Side::NS => "N–S",
            Side::EW => "E–W",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::NS => "NS",
            Side::EW => "EW",
        })
    }
}

impl FromStr for Side {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "NS" => Ok(Side::NS),
            "EW" => Ok(Side::EW),
            _ => Err(format!("'{s}' is not a side: expected NS or EW")),
        }
    }
}

crate::cards::serde_as_string!(Side);

impl utoipa::PartialSchema for Side {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .enum_values(Some(["NS", "EW"]))
            .description(Some("A partnership: NS (North–South) or EW (East–West)."))
            .into()
    }
}

impl utoipa::ToSchema for Side {}

/// A value per side, serialized as `{"NS": .., "EW": ..}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PerSide<T>(pub [T; 2]);

impl<T> std::ops::Index<Side> for PerSide<T> {
    type Output = T;
    fn index(&self, side: Side) -> &T {
        &self.0[side.index()]
    }
}

impl<T> std::ops::IndexMut<Side> for PerSide<T> {
    fn index_mut(&mut self, side: Side) -> &mut T {
        &mut self.0[side.index()]
    }
}

impl<T: serde::Serialize> serde::Serialize for PerSide<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("NS", &self.0[0])?;
        m.serialize_entry("EW", &self.0[1])?;
        m.end()
    }
}

impl<'de, T: serde::Deserialize<'de> + Default> serde::Deserialize<'de> for PerSide<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map = std::collections::BTreeMap::<Side, T>::deserialize(d)?;
        let mut out = PerSide::<T>::default();
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
            .property("NS", T::schema())
            .property("EW", T::schema())
            .required("NS")
            .required("EW")
            .description(Some("One value per partnership."))
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
        assert_eq!(Seat::E.side(), Side::EW);
        assert_eq!(t.resolve("P3".parse().unwrap()), Some(Seat::S));
        let three = Table { size: 3 };
        assert_eq!(three.resolve(Seat::N), None);
        assert_eq!(three.left("P3".parse().unwrap()).to_string(), "P1");
        assert!("X".parse::<Seat>().is_err());
    }
}
