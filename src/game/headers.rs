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
    /// A repeated tag keeps its first value (a roster tag its first that is not the
    /// placeholder). Also returns each value not kept, as (its place in `read`, name, value),
    /// in the order read.
    pub fn from_tags(read: Vec<(String, String)>) -> (Headers, Vec<(usize, String, String)>) {
        let mut headers = Headers::default();
        // Which of `read` set each roster tag, to report it when a later value replaces it.
        let mut roster_from = [None; SEVEN_TAG_ROSTER.len()];
        let mut ignored = Vec::new();
        for (at, (name, value)) in read.into_iter().enumerate() {
            if let Some(i) = SEVEN_TAG_ROSTER.iter().position(|&(k, _)| k == name) {
                if headers.tags[i].1 != SEVEN_TAG_ROSTER[i].1 {
                    ignored.push((at, name, value));
                    continue;
                }
                if let Some(earlier) = roster_from[i].replace(at) {
                    let placeholder = std::mem::replace(&mut headers.tags[i].1, value);
                    ignored.push((earlier, name, placeholder));
                } else {
                    headers.tags[i].1 = value;
                }
            } else if headers.get(&name).is_none() {
                headers.tags.push((name, value));
            } else {
                ignored.push((at, name, value));
            }
        }
        ignored.sort_by_key(|&(at, _, _)| at);
        (headers, ignored)
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
        let (h, ignored) = Headers::from_tags(vec![
            ("ECO".into(), "B20".into()),
            ("White".into(), "Molinari".into()),
            ("Annotator".into(), "x".into()),
        ]);
        assert!(ignored.is_empty());
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

    #[test]
    fn repeated_tags_keep_their_first_value_and_report_the_others() {
        let tag = |n: &str, v: &str| (n.to_owned(), v.to_owned());
        let (h, ignored) = Headers::from_tags(vec![
            tag("White", "?"),
            tag("ECO", "B20"),
            tag("White", "X"),
            tag("ECO", "C00"),
            tag("White", "Y"),
        ]);
        assert_eq!((h.get("White"), h.get("ECO")), (Some("X"), Some("B20")));
        assert_eq!(
            ignored,
            [
                (0, "White".into(), "?".into()),
                (3, "ECO".into(), "C00".into()),
                (4, "White".into(), "Y".into()),
            ]
        );
    }
}
