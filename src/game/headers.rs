//! Tag pairs: the Seven Tag Roster first (filled with the standard placeholders when missing),
//! then every other tag in the order it was read.

/// The Seven Tag Roster with the placeholders the PGN standard gives for unknown values.
pub const SEVEN_TAG_ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Headers {
    tags: Vec<(String, String)>,
}

impl Default for Headers {
    fn default() -> Headers {
        Headers {
            tags: SEVEN_TAG_ROSTER
                .iter()
                .map(|&(k, v)| (k.to_owned(), v.to_owned()))
                .collect(),
        }
    }
}

impl Headers {
    /// Orders tags as read: roster first (placeholders for missing ones), the rest in order.
    /// A repeated tag keeps its first value.
    pub fn from_tags(read: Vec<(String, String)>) -> Headers {
        let mut headers = Headers::default();
        for (name, value) in read {
            if let Some(i) = SEVEN_TAG_ROSTER.iter().position(|&(k, _)| k == name) {
                if headers.tags[i].1 == SEVEN_TAG_ROSTER[i].1 {
                    headers.tags[i].1 = value;
                }
            } else if headers.get(&name).is_none() {
                headers.tags.push((name, value));
            }
        }
        headers
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, keeping its place if present, else appending it.
    pub fn set(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some((_, v)) => *v = value.to_owned(),
            None => self.tags.push((name.to_owned(), value.to_owned())),
        }
    }

    /// Removes a tag; roster tags go back to their placeholder instead.
    pub fn remove(&mut self, name: &str) {
        if let Some(&(_, placeholder)) = SEVEN_TAG_ROSTER.iter().find(|(k, _)| *k == name) {
            self.set(name, placeholder);
        } else {
            self.tags.retain(|(k, _)| k != name);
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.tags.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

/// Writes a tag value between quotes: backslash and quote escaped, line breaks (not allowed in
/// a tag) turned into spaces.
pub fn escape_value(value: &str, out: &mut String) {
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' | '\t' => out.push(' '),
            _ => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roster_first_then_read_order() {
        let h = Headers::from_tags(vec![
            ("ECO".into(), "B20".into()),
            ("White".into(), "Molinari".into()),
            ("Annotator".into(), "x".into()),
        ]);
        let names: Vec<&str> = h.iter().map(|(k, _)| k).collect();
        assert_eq!(
            names,
            [
                "Event",
                "Site",
                "Date",
                "Round",
                "White",
                "Black",
                "Result",
                "ECO",
                "Annotator"
            ]
        );
        assert_eq!(h.get("White"), Some("Molinari"));
        assert_eq!(h.get("Date"), Some("????.??.??"));
        let mut s = String::new();
        escape_value("a \"b\" \\c", &mut s);
        assert_eq!(s, r#"a \"b\" \\c"#);
    }
}
