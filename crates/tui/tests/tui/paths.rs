//! Paths as a shell gives them (`App::update`): a relative export lands in the working
//! directory and the message names the absolute path; `~` is the home; Tab in a file prompt
//! lists the directory typed (a file job) and completes the name.

use std::path::PathBuf;

use diagtui_tui::transfer::{FileFor, FileJob, Places};
use diagtui_tui::{Effect, Msg, Request, Setup};

use crate::harness::{Harness, content, objects};

fn setup() -> Setup {
    Setup {
        places: Places {
            cwd: PathBuf::from("/work/plans"),
            home: Some(PathBuf::from("/home/me")),
        },
        ..Setup::new("local /data/diagtui")
    }
}

#[test]
fn a_relative_export_says_the_absolute_path_it_was_written_to() {
    let mut h = Harness::opened_with(setup());
    h.press("1 x Enter");
    let effects = h.answer(
        |r| matches!(r, Request::Content { .. }),
        Ok(objects(content())),
    );
    let Some(Effect::File(what, job)) = effects.into_iter().next() else {
        panic!("no file job")
    };
    assert_eq!(
        job.path(),
        PathBuf::from("/work/plans/network-overview.json")
    );
    h.send(Msg::File(what, job, Ok(String::new())));
    let status = h.status();
    assert!(
        status.contains("exported \"Network overview\" to /work/plans/network-overview.json"),
        "{status}"
    );
}

#[test]
fn tab_in_a_file_prompt_lists_the_directory_typed_and_completes_the_name() {
    let mut h = Harness::opened_with(setup());
    h.press("1 i C-u");
    h.type_text("~/exports/net");
    let effects = h.press("Tab");
    let [Effect::File(FileFor::Complete(typed), FileJob::List(dir))] = effects.as_slice() else {
        panic!("no listing asked for: {effects:?}")
    };
    assert_eq!(typed, "~/exports/net");
    assert_eq!(dir, &PathBuf::from("/home/me/exports/"));
    h.send(Msg::File(
        FileFor::Complete(typed.clone()),
        FileJob::List(dir.clone()),
        Ok("network-overview.json\nold.json\nplans/".into()),
    ));
    h.expect("~/exports/network-overview.json▏");
    // Enter reads the file the completed path names, in the home.
    let effects = h.press("Enter");
    assert!(
        matches!(effects.as_slice(), [Effect::File(FileFor::Import(_), FileJob::Read(path))]
            if path == &PathBuf::from("/home/me/exports/network-overview.json")),
        "{effects:?}"
    );
}
