//! `doc export` and `doc content`: a document's content written as it arrives, laid out again
//! on the way ([`Relayout`]), never held whole. A file gets it indented and is written whole or
//! not at all (through `FILE.part`, renamed over it at the end); stdout gets it indented on a
//! terminal and compact otherwise, like every other answer.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use super::Failure;
use super::output::stdout_layout;
use super::relayout::{Layout, Relayout, RelayoutError};
use diagtui_client::{AnswerBody, Client};

/// Writes the content of `doc` (as it was at `version`, when given) to `path`, or to stdout
/// when there is none.
pub(crate) async fn export(
    client: &Client,
    doc: &str,
    version: Option<u64>,
    path: Option<&Path>,
) -> Result<(), Failure> {
    let mut answer = match version {
        Some(version) => client.content_body_at(doc, version).await?,
        None => client.content_body(doc).await?,
    };
    let Some(path) = path else {
        let stdout = std::io::stdout();
        let layout = stdout_layout(&stdout);
        let out = BufWriter::new(stdout.lock());
        return copy(&mut answer, Relayout::new(out, layout), "stdout").await;
    };
    let target = Target::new(path)?;
    let file = File::create(&target.part).map_err(|e| target.cannot_write(&e))?;
    let copied = copy(
        &mut answer,
        Relayout::new(BufWriter::new(file), Layout::Indented),
        &target.named.display().to_string(),
    )
    .await;
    match copied.and_then(|()| target.commit()) {
        Ok(()) => Ok(()),
        Err(failure) => {
            std::fs::remove_file(&target.part).ok();
            Err(failure)
        }
    }
}

/// Copies the answer through the layout; `output` names where it goes, for errors.
async fn copy<W: Write>(
    answer: &mut AnswerBody,
    mut relayout: Relayout<W>,
    output: &str,
) -> Result<(), Failure> {
    let failed = |err: RelayoutError| match err {
        RelayoutError::Malformed(why) => Failure::Other(anyhow::anyhow!(
            "the server's answer is not the content expected: {why}"
        )),
        RelayoutError::Write(e) => Failure::Other(anyhow::anyhow!("cannot write {output}: {e}")),
    };
    while let Some(piece) = answer.chunk().await? {
        relayout.write(&piece).map_err(failed)?;
    }
    relayout.finish().map_err(failed)?;
    Ok(())
}

/// The file an export goes to, and the part file written first.
struct Target {
    /// The path as given, for messages.
    named: PathBuf,
    /// The file it names, or what it links to: a link is kept and its target replaced.
    file: PathBuf,
    /// `FILE.part` beside it.
    part: PathBuf,
}

impl Target {
    /// Refuses a directory.
    fn new(path: &Path) -> Result<Target, Failure> {
        let file = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
        let mut part = file.clone().into_os_string();
        part.push(".part");
        let target = Target {
            named: path.to_owned(),
            file,
            part: part.into(),
        };
        if target.file.is_dir() {
            return Err(target.cannot_write(&std::io::ErrorKind::IsADirectory.into()));
        }
        Ok(target)
    }

    /// Puts the part file in place of the file, with the file's permissions if it existed.
    fn commit(&self) -> Result<(), Failure> {
        if let Ok(existing) = std::fs::metadata(&self.file) {
            std::fs::set_permissions(&self.part, existing.permissions())
                .map_err(|e| self.cannot_write(&e))?;
        }
        std::fs::rename(&self.part, &self.file).map_err(|e| self.cannot_write(&e))
    }

    fn cannot_write(&self, err: &std::io::Error) -> Failure {
        Failure::Other(anyhow::anyhow!(
            "cannot write {}: {err}",
            self.named.display()
        ))
    }
}
