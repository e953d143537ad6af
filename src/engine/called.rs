//! A suit or a card named by a player (a trump named, a card cut), as the record calls it.

use crate::record::Placeholder;
use serde::{Deserialize, Serialize};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

/// A trump or a card as called: read as text, so that one that is not a suit or not a card of the
/// game is the game's own record error (Knockout Whist's `invalid_trump`, Pluck's `illegal_trump`),
/// not a refusal of the record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Called(pub String);

impl PartialSchema for Called {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(
                "A suit (a trump: S, H, D or C) or a card code (a cut), as called; one that is not \
                 is the game's record error, not a refusal.",
            ))
            .into()
    }
}

impl ToSchema for Called {}

impl Placeholder for Called {
    const PLACEHOLDER: &'static str = "<suit for a trump, card for a cut>";
}
