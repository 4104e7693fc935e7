//! The status line: the last thing the editor has to tell the user, with its level.
//! Each message is logged once, at its own level, when it is set (the Log panel
//! shows the history); the level is said where the message is made, never guessed
//! from its words.

/// How much a message matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Level {
    #[default]
    Info,
    /// Done, but not all of it, or not as asked (a cancel, a clamp).
    Warning,
    /// Not done.
    Error,
}

/// The status line's message.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Status {
    pub level: Level,
    pub text: String,
}

impl Status {
    pub fn info(&mut self, text: impl Into<String>) {
        self.set(Level::Info, text.into());
    }

    pub fn warn(&mut self, text: impl Into<String>) {
        self.set(Level::Warning, text.into());
    }

    pub fn error(&mut self, text: impl Into<String>) {
        self.set(Level::Error, text.into());
    }

    /// A job's outcome: its message, or why it failed.
    pub fn outcome(&mut self, result: Result<String, String>) {
        match result {
            Ok(m) => self.info(m),
            Err(e) => self.error(e),
        }
    }

    /// Polls a background job shown beside the status line: its stage while it
    /// runs; once it ends, its outcome (a failure after `failed`), the job gone.
    /// `Some` when it ended.
    pub fn follow(
        job: &mut Option<super::jobs::Job<String>>,
        shown: &mut Option<Status>,
        failed: &str,
    ) -> Option<Result<String, String>> {
        let running = job.as_mut()?;
        let Some(r) = running.poll() else {
            *shown = Some(Self::quiet(Level::Info, running.stage.clone()));
            return None;
        };
        *job = None;
        *shown = Some(match &r {
            Ok(s) => Self::quiet(Level::Info, s.clone()),
            Err(e) => Self::quiet(Level::Error, format!("{failed}{e}")),
        });
        Some(r)
    }

    /// A message with its level that is not logged (progress shown beside the
    /// status line, whose outcome is logged where it is made).
    pub fn quiet(level: Level, text: impl Into<String>) -> Self {
        Self {
            level,
            text: text.into(),
        }
    }

    fn set(&mut self, level: Level, text: String) {
        match level {
            Level::Info => tracing::info!(target: "pebble", "{text}"),
            Level::Warning => tracing::warn!(target: "pebble", "{text}"),
            Level::Error => tracing::error!(target: "pebble", "{text}"),
        }
        self.level = level;
        self.text = text;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_level_is_the_one_given_and_outcomes_map_to_info_or_error() {
        let mut s = Status::default();
        s.warn("export cancelled");
        assert_eq!(s.level, Level::Warning);
        s.info("cannot is just a word here");
        assert_eq!(s.level, Level::Info, "no guessing from the text");
        s.outcome(Err("export failed".into()));
        assert_eq!((s.level, s.text.as_str()), (Level::Error, "export failed"));
        s.outcome(Ok("exported".into()));
        assert_eq!(s.level, Level::Info);
    }
}
