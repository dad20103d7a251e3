//! The one key table: rows of context, command, keys, label and description that drive the
//! dispatch of every key, the help overlay, the footer, the hints in overlays, the command palette,
//! `diagtui keys` and the key tables of `docs/keys.md`. `config.toml` may change the keys of any row:
//!
//! ```toml
//! [keys.objects]
//! delete = "x"
//! [keys.global]
//! quit = ["ctrl-q", "q"]
//! ```

//!
//! The room: [`Command`] and [`Context`] (`command.rs`), [`Chord`] (a key as written,
//! `chord.rs`), the default rows (`defaults.rs`) and the table built from them here. May import
//! `settings` (the keys `config.toml` sets), nothing else of the TUI.

mod chord;
mod command;
mod defaults;

pub use chord::Chord;
pub use command::{Command, Context};

use crossterm::event::KeyEvent;

use crate::settings::{KeySetting, SettingError};

/// One row of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// Where it applies.
    pub context: Context,
    /// What it does.
    pub command: Command,
    /// The keys that run it (at least one).
    pub keys: Vec<Chord>,
    /// A short name for the footer and the hints.
    pub label: &'static str,
    /// What it does, in words.
    pub description: &'static str,
    /// Whether the footer lists it.
    pub footer: bool,
}

impl Binding {
    /// The keys as shown: `y / Enter`.
    pub fn keys_text(&self) -> String {
        self.keys
            .iter()
            .map(Chord::to_string)
            .collect::<Vec<_>>()
            .join(" / ")
    }
}

/// The key table in force.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyTable {
    bindings: Vec<Binding>,
    /// For each context (by its place in `Context::ALL`), the rows that apply in it, nearest
    /// context first: looked up on every key press and every frame's footer.
    applying: Vec<Vec<usize>>,
}

impl Default for KeyTable {
    fn default() -> KeyTable {
        let bindings = defaults::ROWS
            .iter()
            .map(|row| Binding {
                context: row.context,
                command: row.command,
                keys: row
                    .keys
                    .iter()
                    .map(|k| Chord::parse(k).expect("the default keys parse"))
                    .collect(),
                label: row.label,
                description: row.description,
                footer: row.footer,
            })
            .collect();
        KeyTable::of(bindings)
    }
}

impl KeyTable {
    /// A table of `bindings`, with the rows that apply in each context worked out once.
    fn of(bindings: Vec<Binding>) -> KeyTable {
        let applying = Context::ALL
            .iter()
            .map(|context| {
                context
                    .lineage()
                    .into_iter()
                    .flat_map(|c| {
                        bindings
                            .iter()
                            .enumerate()
                            .filter(move |(_, b)| b.context == c)
                            .map(|(i, _)| i)
                    })
                    .collect()
            })
            .collect();
        KeyTable { bindings, applying }
    }

    /// The rows that apply in `context`, nearest context first.
    fn applying(&self, context: Context) -> impl Iterator<Item = &Binding> {
        self.applying[context.index()]
            .iter()
            .map(|&i| &self.bindings[i])
    }

    /// The default table with the keys `config.toml` sets. An unknown context or action, a key
    /// that cannot be read, two actions on one key of a context, or a plain character bound
    /// where text is typed, is an error naming the line.
    pub fn configured(settings: &[KeySetting]) -> Result<KeyTable, SettingError> {
        let mut table = KeyTable::default();
        // The line that set each changed row, to name it in a clash.
        let mut set_at: Vec<(Context, Command, usize)> = Vec::new();
        for setting in settings {
            let context = Context::named(&setting.context.value).ok_or_else(|| {
                let known: Vec<&str> = Context::ALL.iter().map(|c| c.name()).collect();
                SettingError::new(
                    setting.context.line,
                    format!(
                        "[keys.{}]: no such context (the contexts: {})",
                        setting.context.value,
                        known.join(", ")
                    ),
                )
            })?;
            let action = &setting.action.value;
            let Some(row) = table
                .bindings
                .iter_mut()
                .find(|b| b.context == context && b.command.name() == action)
            else {
                return Err(SettingError::new(
                    setting.action.line,
                    unknown_action(context, action),
                ));
            };
            if setting.keys.value.is_empty() {
                return Err(SettingError::new(
                    setting.keys.line,
                    format!("[keys.{}] {action}: give at least one key", context.name()),
                ));
            }
            row.keys = setting
                .keys
                .value
                .iter()
                .map(|k| Chord::parse(k))
                .collect::<Result<_, _>>()
                .map_err(|e| {
                    SettingError::new(
                        setting.keys.line,
                        format!("[keys.{}] {action}: {e}", context.name()),
                    )
                })?;
            set_at.push((context, row.command, setting.keys.line));
        }
        match table.problems().into_iter().next() {
            None => Ok(table),
            Some(problem) => {
                let line = |c: Context, cmd: Command| {
                    set_at
                        .iter()
                        .rev()
                        .find(|(sc, scmd, _)| *sc == c && *scmd == cmd)
                        .map(|(_, _, line)| *line)
                };
                let at = problem
                    .rows
                    .iter()
                    .filter_map(|&(c, cmd)| line(c, cmd))
                    .max()
                    .unwrap_or(0);
                Err(SettingError::new(at, problem.message))
            }
        }
    }

    /// Every row, in help order.
    pub fn bindings(&self) -> &[Binding] {
        &self.bindings
    }

    /// The rows of `context` itself.
    pub fn own(&self, context: Context) -> impl Iterator<Item = &Binding> {
        self.bindings.iter().filter(move |b| b.context == context)
    }

    /// The rows that apply in `context`: its own, then those it inherits, nearest first.
    pub fn effective(&self, context: Context) -> Vec<&Binding> {
        self.applying(context).collect()
    }

    /// Every context with its own rows, grouped: first the contexts that apply in `here`
    /// (nearest first), then every other one in help order; contexts without rows are left out.
    /// What the help and the palette list, so every action is found from anywhere.
    pub fn grouped(&self, here: Context) -> Vec<(Context, Vec<&Binding>)> {
        let near = here.lineage();
        let far = Context::ALL.into_iter().filter(|c| !near.contains(c));
        near.iter()
            .copied()
            .chain(far)
            .map(|c| (c, self.own(c).collect::<Vec<_>>()))
            .filter(|(_, rows)| !rows.is_empty())
            .collect()
    }

    /// The row a key press runs in `context`, if any.
    pub fn lookup(&self, context: Context, event: &KeyEvent) -> Option<&Binding> {
        let chord = Chord::of(event);
        self.applying(context).find(|b| b.keys.contains(&chord))
    }

    /// The row of `command` as it applies in `context` (its own or inherited).
    pub fn binding(&self, context: Context, command: Command) -> Option<&Binding> {
        self.applying(context).find(|b| b.command == command)
    }

    /// The first key of `command` in `context`, as shown (`R`), for messages that name it.
    pub fn key(&self, context: Context, command: Command) -> String {
        self.binding(context, command)
            .and_then(|b| b.keys.first())
            .map_or_else(|| command.name().to_string(), Chord::to_string)
    }

    /// A hint line: `keys label` for each command, with the labels given.
    pub fn hint(&self, context: Context, items: &[(Command, &str)]) -> String {
        items
            .iter()
            .filter_map(|&(command, label)| {
                let binding = self.binding(context, command)?;
                Some(format!("{}: {label}", binding.keys_text()))
            })
            .collect::<Vec<_>>()
            .join(" · ")
    }

    /// The footer of `context`: its own footer rows, then those it inherits.
    pub fn footer(&self, context: Context) -> impl Iterator<Item = &Binding> {
        self.applying(context).filter(|b| b.footer)
    }

    /// What is wrong with the table: two commands on one key where both apply, a plain
    /// character bound where it would have to type, a command without keys or words.
    pub fn problems(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        for context in Context::ALL {
            let rows = self.effective(context);
            for (i, a) in rows.iter().enumerate() {
                if a.keys.is_empty() || a.description.is_empty() || a.label.is_empty() {
                    problems.push(Problem {
                        rows: vec![(a.context, a.command)],
                        message: format!(
                            "[keys.{}] {} has no key or no description",
                            a.context.name(),
                            a.command.name()
                        ),
                    });
                }
                for b in &rows[i + 1..] {
                    if let Some(key) = a.keys.iter().find(|k| b.keys.contains(k)) {
                        problems.push(Problem {
                            rows: vec![(a.context, a.command), (b.context, b.command)],
                            message: format!(
                                "{key} is both {} in [keys.{}] and {} in [keys.{}], which both \
                                 apply in [keys.{}]",
                                a.command.name(),
                                a.context.name(),
                                b.command.name(),
                                b.context.name(),
                                context.name()
                            ),
                        });
                    }
                }
                if context.takes_text()
                    && let Some(key) = a.keys.iter().find(|k| k.types())
                {
                    problems.push(Problem {
                        rows: vec![(a.context, a.command)],
                        message: format!(
                            "{key} cannot be {} in [keys.{}]: there it types text; use a key \
                             with ctrl- or alt-, or a named key",
                            a.command.name(),
                            a.context.name()
                        ),
                    });
                }
            }
        }
        problems.dedup();
        problems
    }

    /// The whole table as text, context by context: what `diagtui keys` prints.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for context in Context::ALL {
            out.push_str(&format!("[keys.{}]  {}\n", context.name(), context.title()));
            let parents: Vec<String> = context
                .parents()
                .iter()
                .map(|p| format!("[keys.{}]", p.name()))
                .collect();
            if !parents.is_empty() {
                out.push_str(&format!("  (and the keys of {})\n", parents.join(", ")));
            }
            for b in self.own(context) {
                out.push_str(&format!(
                    "  {:<20} {:<18} {}\n",
                    b.keys_text(),
                    b.command.name(),
                    b.description
                ));
            }
            out.push('\n');
        }
        out
    }

    /// A Markdown table of the rows of `contexts`: the key tables of `docs/keys.md`.
    pub fn to_markdown(&self, contexts: &[Context]) -> String {
        let mut out = String::from("| where | keys | action | does |\n|---|---|---|---|\n");
        for context in contexts {
            for b in self.own(*context) {
                let keys: Vec<String> = b.keys.iter().map(|k| format!("`{k}`")).collect();
                out.push_str(&format!(
                    "| {} | {} | `{}` | {} |\n",
                    context.title(),
                    keys.join(" "),
                    b.command.name(),
                    b.description.replace('|', "\\|")
                ));
            }
        }
        out
    }
}

/// Why an action name is not one of `context`'s, naming where it is if it is elsewhere.
fn unknown_action(context: Context, action: &str) -> String {
    let table = KeyTable::default();
    let own: Vec<&str> = table.own(context).map(|b| b.command.name()).collect();
    let elsewhere: Vec<String> = table
        .bindings()
        .iter()
        .filter(|b| b.command.name() == action)
        .map(|b| format!("[keys.{}]", b.context.name()))
        .collect();
    let hint = if elsewhere.is_empty() {
        String::new()
    } else {
        format!("; `{action}` is in {}", elsewhere.join(", "))
    };
    format!(
        "[keys.{}] {action}: no such action here (its actions: {}){hint}",
        context.name(),
        own.join(", ")
    )
}

/// Something wrong with the table, and the rows it concerns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The rows involved.
    pub rows: Vec<(Context, Command)>,
    /// What is wrong.
    pub message: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Located;
    use crossterm::event::{KeyCode, KeyModifiers};

    fn setting(context: &str, action: &str, keys: &[&str], line: usize) -> KeySetting {
        KeySetting {
            context: Located::new(context.to_string(), line - 1),
            action: Located::new(action.to_string(), line),
            keys: Located::new(keys.iter().map(|k| k.to_string()).collect(), line),
        }
    }

    fn press(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
    }

    #[test]
    fn grouped_holds_every_row_once_those_that_apply_here_first() {
        let table = KeyTable::default();
        let groups = table.grouped(Context::Documents);
        let contexts: Vec<Context> = groups.iter().map(|(c, _)| *c).collect();
        assert_eq!(
            contexts[..4],
            [
                Context::Documents,
                Context::Global,
                Context::Move,
                Context::Always
            ]
        );
        assert!(contexts.contains(&Context::Objects) && contexts.contains(&Context::Map));
        let rows: usize = groups.iter().map(|(_, rows)| rows.len()).sum();
        assert_eq!(rows, table.bindings().len());
    }

    #[test]
    fn every_command_has_a_key_and_a_description_and_no_context_shares_a_key() {
        let table = KeyTable::default();
        assert_eq!(table.problems(), Vec::new());
        for command in Command::ALL {
            assert!(
                table
                    .bindings()
                    .iter()
                    .any(|b| b.command == *command && !b.keys.is_empty()),
                "{} has no key",
                command.name()
            );
        }
        for context in Context::ALL {
            assert!(
                table.own(context).next().is_some(),
                "{} has no keys",
                context.name()
            );
        }
    }

    /// The first problem of the default table with the keys of one row replaced.
    fn problem_with(context: Context, command: Command, keys: Vec<Chord>) -> String {
        let mut table = KeyTable::default();
        let row = table
            .bindings
            .iter_mut()
            .find(|b| b.context == context && b.command == command)
            .unwrap();
        row.keys = keys;
        table.problems()[0].message.clone()
    }

    #[test]
    fn the_check_finds_a_shared_key_a_missing_key_and_a_typing_key() {
        let shared = problem_with(Context::Objects, Command::Delete, vec![Chord::char('j')]);
        assert!(shared.contains("j is both"), "{shared}");
        let none = problem_with(Context::Global, Command::Quit, Vec::new());
        assert!(none.contains("has no key"), "{none}");
        let typing = problem_with(Context::Edit, Command::Save, vec![Chord::char('s')]);
        assert!(typing.contains("there it types text"), "{typing}");
    }

    #[test]
    fn lookup_searches_the_context_then_what_it_inherits() {
        let table = KeyTable::default();
        let found = |context, c| {
            table
                .lookup(context, &press(c))
                .map(|b| (b.context, b.command))
        };
        assert_eq!(
            found(Context::Objects, 'd'),
            Some((Context::Objects, Command::Delete))
        );
        assert_eq!(
            found(Context::Objects, 'j'),
            Some((Context::Move, Command::Down))
        );
        assert_eq!(
            found(Context::Objects, 'q'),
            Some((Context::Global, Command::Quit))
        );
        assert_eq!(found(Context::Prompt, 'q'), None, "a prompt types q");
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(
            table.lookup(Context::Prompt, &ctrl_c).map(|b| b.command),
            Some(Command::ForceQuit)
        );
    }

    #[test]
    fn the_config_changes_keys_and_says_what_is_wrong_naming_the_line() {
        let table = KeyTable::configured(&[
            setting("objects", "delete", &["x"], 2),
            setting("global", "quit", &["ctrl-q"], 4),
        ])
        .unwrap();
        assert_eq!(
            table
                .lookup(Context::Objects, &press('x'))
                .map(|b| b.command),
            Some(Command::Delete)
        );
        assert_eq!(table.lookup(Context::Objects, &press('d')), None);
        assert_eq!(table.key(Context::Objects, Command::Quit), "Ctrl-Q");

        let error = |settings: &[KeySetting]| KeyTable::configured(settings).unwrap_err();
        let e = error(&[setting("objectz", "delete", &["x"], 3)]);
        assert_eq!(e.line, 2);
        assert!(e.message.contains("no such context"), "{e}");
        let e = error(&[setting("objects", "down", &["x"], 5)]);
        assert_eq!(e.line, 5);
        assert!(e.message.contains("`down` is in [keys.move]"), "{e}");
        let e = error(&[setting("objects", "delete", &["ctrl-"], 7)]);
        assert_eq!(e.line, 7);
        assert!(e.message.contains("is not a key"), "{e}");
        let e = error(&[
            setting("objects", "add", &["x"], 3),
            setting("objects", "delete", &["x"], 4),
        ]);
        assert_eq!(e.line, 4);
        assert!(e.message.contains("x is both"), "{e}");
        let e = error(&[setting("global", "zoom", &["d"], 9)]);
        assert_eq!(e.line, 9, "a global key that an object key already uses");
        let e = error(&[setting("prompt", "submit", &["y"], 2)]);
        assert!(e.message.contains("types text"), "{e}");
        let e = error(&[setting("prompt", "submit", &[], 2)]);
        assert!(e.message.contains("at least one key"), "{e}");
    }

    #[test]
    fn hints_and_footer_follow_the_keys() {
        let table = KeyTable::configured(&[setting("confirm", "yes", &["o"], 2)]).unwrap();
        assert_eq!(
            table.hint(
                Context::Confirm,
                &[(Command::Yes, "delete"), (Command::No, "keep")]
            ),
            "o: delete · n / Esc: keep"
        );
        let footer: Vec<&str> = KeyTable::default()
            .footer(Context::Documents)
            .map(|b| b.label)
            .collect();
        assert_eq!(
            footer,
            [
                "open", "filter", "new", "delete", "quit", "help", "commands"
            ]
        );
    }
}
