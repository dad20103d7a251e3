//! `diagtui doc render`: reads a document's content through the client and renders it here,
//! so it works against any server, with or without the image route.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use super::output::Output;
use super::{Failure, Session};
use diagtui_scene::render::{
    self, Format, Picture, PictureError, View, parse_component_size, parse_side,
};
use diagtui_scene::{DEFAULT_STATUS_KEY, Scene};

/// Examples shown under `diagtui doc render --help`.
pub const EXAMPLES: &str = "\
Examples:
  diagtui doc render DOC -o web.png
  diagtui doc render DOC --view 2d --width 1920 --height 1080 -o web.svg
  diagtui doc render DOC --component-size 48 -o web.png
  diagtui doc render DOC > web.svg";

/// The arguments of `diagtui doc render`.
#[derive(Debug, clap::Args)]
pub struct RenderArgs {
    /// The document id.
    doc: String,
    /// The file to write (default: stdout).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// 3d (isometric, components as blocks) or 2d (from above).
    #[arg(long, value_name = "2d|3d", default_value_t = View::Isometric, value_parser = str::parse::<View>)]
    view: View,
    /// The image width in pixels, 1–8192 [default: 1400].
    #[arg(long, value_name = "W", value_parser = parse_side)]
    width: Option<u32>,
    /// The image height in pixels, 1–8192 [default: as the diagram's aspect makes it].
    #[arg(long, value_name = "H", value_parser = parse_side)]
    height: Option<u32>,
    /// Pixels across one component: the diagram is drawn at that scale, and a side not given
    /// is as large as it then needs.
    #[arg(long, value_name = "N", value_parser = parse_component_size)]
    component_size: Option<u32>,
    /// png or svg (default: from the file's extension; svg on stdout).
    #[arg(long, value_name = "png|svg", value_parser = str::parse::<Format>)]
    format: Option<Format>,
    /// The `meta` key read as a component's status.
    #[arg(long, value_name = "KEY", default_value = DEFAULT_STATUS_KEY)]
    status_key: String,
}

impl RenderArgs {
    /// Renders the document to the file or stdout.
    pub(crate) async fn execute(self, session: &mut Session<'_>) -> Result<Output, Failure> {
        let format = self.format()?;
        let content = session.client().await?.content(&self.doc).await?;
        let scene = Scene::build(&content, &self.status_key);
        let picture = Picture {
            view: self.view,
            width: self.width,
            height: self.height,
            component_size: self.component_size,
        };
        let image = render::render_picture(&scene, format, &picture).map_err(|e| match e {
            PictureError::ComponentSize(_) => Failure::Usage(format!("--{e}")),
            PictureError::Render(e) => Failure::Other(e.into()),
        })?;
        let written = match &self.output {
            Some(path) => std::fs::write(path, &image)
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display())),
            None => std::io::stdout()
                .lock()
                .write_all(&image)
                .map_err(|e| anyhow::anyhow!("cannot write to stdout: {e}")),
        };
        written.map_err(Failure::Other)?;
        Ok(Output::Nothing)
    }

    /// `--format`, else the output file's extension, else SVG on stdout. PNG is not written
    /// to a terminal.
    fn format(&self) -> Result<Format, Failure> {
        let format = match (self.format, &self.output) {
            (Some(format), _) => format,
            (None, Some(path)) => Format::of_path(path).ok_or_else(|| {
                Failure::Usage(format!(
                    "cannot tell the format of {} from its extension: give --format png or svg",
                    path.display()
                ))
            })?,
            (None, None) => Format::Svg,
        };
        if format == Format::Png && self.output.is_none() && std::io::stdout().is_terminal() {
            return Err(Failure::Usage(
                "will not write a PNG to the terminal: give -o FILE or redirect stdout".into(),
            ));
        }
        Ok(format)
    }
}
