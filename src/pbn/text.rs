//! A PBN text as tag pairs, each with the data tokens of its section (PBN 2.1 §2–3): `[Name
//! "value"]` then the tokens up to the next tag; comments (`{...}`, `;` to the end of the line)
//! and escape lines (`%` first on a line) are skipped. The grammar is in `docs/pbn.md`.

/// Where something is in the text: 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub line: u64,
    pub column: u64,
}

impl Position {
    /// `n` characters further on the same line.
    pub fn plus(self, n: usize) -> Position {
        Position {
            column: self.column + n as u64,
            ..self
        }
    }
}

/// A data token of a section: a run of characters up to white space, a comment or a tag.
#[derive(Clone, Debug)]
pub struct Token {
    pub text: String,
    pub at: Position,
}

/// A tag pair and the section that follows it.
#[derive(Clone, Debug)]
pub struct Tag {
    pub name: String,
    /// The value with its escapes (`\"`, `\\`) undone.
    pub value: String,
    pub at: Position,
    /// Where the value starts (after its opening quote).
    pub value_at: Position,
    pub data: Vec<Token>,
}

/// What makes a text not PBN, and where.
#[derive(Debug)]
pub struct Malformed {
    pub at: Position,
    pub detail: String,
}

/// A tag's value as written between its quotes.
pub fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Whether `name` may name a tag: a letter, then letters, digits and `_`.
pub fn is_tag_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The characters of a text with their positions.
struct Chars<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    at: Position,
}

impl Chars<'_> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.at = Position {
                line: self.at.line + 1,
                column: 1,
            };
        } else {
            self.at.column += 1;
        }
        Some(c)
    }

    fn skip_line(&mut self) {
        while self.peek().is_some_and(|c| c != '\n') {
            self.next();
        }
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.next();
        }
    }
}

/// The tags of `text`, in order, each with its section's tokens.
pub fn tags(text: &str) -> Result<Vec<Tag>, Malformed> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut chars = Chars {
        chars: text.chars().peekable(),
        at: Position { line: 1, column: 1 },
    };
    let mut tags: Vec<Tag> = Vec::new();
    while let Some(c) = chars.peek() {
        let at = chars.at;
        match c {
            '%' if at.column == 1 => chars.skip_line(),
            ';' => chars.skip_line(),
            c if c.is_ascii_whitespace() => {
                chars.next();
            }
            '{' => {
                chars.next();
                loop {
                    match chars.next() {
                        Some('}') => break,
                        Some(_) => {}
                        None => {
                            return Err(Malformed {
                                at,
                                detail: "this comment is not closed: expected '}'".into(),
                            });
                        }
                    }
                }
            }
            '[' => tags.push(tag(&mut chars)?),
            _ => {
                let mut text = String::new();
                while let Some(c) = chars.peek() {
                    if c.is_ascii_whitespace() || matches!(c, '{' | '[' | ';') {
                        break;
                    }
                    text.push(c);
                    chars.next();
                }
                match tags.last_mut() {
                    Some(tag) => tag.data.push(Token { text, at }),
                    None => {
                        return Err(Malformed {
                            at,
                            detail: format!(
                                "'{text}' comes before the first tag: expected a tag such as [Deal \"...\"]"
                            ),
                        });
                    }
                }
            }
        }
    }
    Ok(tags)
}

/// One tag pair, from its `[`.
fn tag(chars: &mut Chars) -> Result<Tag, Malformed> {
    let at = chars.at;
    chars.next();
    chars.skip_spaces();
    let name_at = chars.at;
    let mut name = String::new();
    while let Some(c) = chars
        .peek()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
    {
        name.push(c);
        chars.next();
    }
    if !is_tag_name(&name) {
        return Err(Malformed {
            at: name_at,
            detail: "expected a tag name (a letter, then letters, digits or '_') after '['".into(),
        });
    }
    chars.skip_spaces();
    if chars.peek() != Some('"') {
        return Err(Malformed {
            at: chars.at,
            detail: format!("expected the value of tag {name} in double quotes"),
        });
    }
    chars.next();
    let value_at = chars.at;
    let mut value = String::new();
    loop {
        match chars.next() {
            Some('"') => break,
            Some('\\') if matches!(chars.peek(), Some('"' | '\\')) => {
                value.extend(chars.next());
            }
            Some('\n' | '\r') | None => {
                return Err(Malformed {
                    at: value_at,
                    detail: format!(
                        "the value of tag {name} is not closed on its line: expected '\"' (write \\\" for a quote in it)"
                    ),
                });
            }
            Some(c) => value.push(c),
        }
    }
    let end = chars.at;
    chars.skip_spaces();
    if chars.peek() != Some(']') {
        return Err(Malformed {
            at: end,
            detail: format!("expected ']' to close tag {name}"),
        });
    }
    chars.next();
    Ok(Tag {
        name,
        value,
        at,
        value_at,
        data: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_sections_comments_and_escapes() {
        let text = "% PBN 2.1\n[Event \"a \\\"b\\\" \\\\ c\"]\n{ a comment\n over lines }\n\
                    [Auction \"N\"] ; to the end\nPass 3\n  Pass { between } Pass\n";
        let tags = tags(text).unwrap();
        assert_eq!(tags.len(), 2);
        assert_eq!(tags[0].value, "a \"b\" \\ c");
        assert_eq!(tags[0].at, Position { line: 2, column: 1 });
        let data: Vec<_> = tags[1].data.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(data, ["Pass", "3", "Pass", "Pass"]);
        assert_eq!(tags[1].data[2].at, Position { line: 7, column: 3 });
        assert_eq!(escape("a \"b\" \\ c"), "a \\\"b\\\" \\\\ c");
    }

    #[test]
    fn malformed_texts_say_where() {
        for (text, line, column) in [
            ("Pass", 1, 1),
            ("[Deal \"N:", 1, 8),
            ("[Deal N]", 1, 7),
            ("\n[ \"x\"]", 2, 3),
            ("[Deal \"x\" x", 1, 10),
            ("[A \"\"]\n {", 2, 2),
        ] {
            let e = tags(text).unwrap_err();
            assert_eq!(
                (e.at.line, e.at.column),
                (line, column),
                "{text:?}: {}",
                e.detail
            );
        }
    }
}
