//! The open document's scene (`diagtui_scene`): what the map draws and where the tree finds what
//! connects to what. App owns a [`SceneCache`]; after every update it asks the cache whether the
//! open document's objects changed since the scene was built ([`SceneCache::wanted`]), and if so
//! hands a [`SceneJob`] to the runner, which builds the scene on a blocking thread (never on the
//! input loop) and sends it back as `Msg::Scene`. Until it arrives the last scene of the same
//! document stays in use.

use std::sync::Arc;

use crate::document::load::drop_elsewhere;
use crate::document::{ObjectModel, ObjectTexts, OpenDoc};
use diagtui_scene::{DEFAULT_STATUS_KEY, Input, Scene};

/// Which content a scene was built from: the document and its model's version.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Key {
    doc: String,
    version: u64,
}

/// The work of building one scene, to run off the input loop ([`SceneJob::run`]).
#[derive(Debug, Clone)]
pub struct SceneJob {
    key: Key,
    /// The objects as they were when the job was made (their data as JSON text), shared with
    /// the model without a copy.
    model: ObjectTexts,
    status_key: String,
}

impl PartialEq for SceneJob {
    /// Two jobs are the same work when they build the same version of the same document.
    fn eq(&self, other: &SceneJob) -> bool {
        self.key == other.key
    }
}

impl SceneJob {
    /// Builds the scene (this takes a while on a large document: call it on a worker thread).
    /// Each object's data is read from its JSON text, never parsed into values.
    pub fn run(self) -> BuiltScene {
        let objects = self
            .model
            .entries()
            .map(|entry| Input::json(entry.id, entry.kind, entry.data_json));
        BuiltScene {
            scene: Arc::new(Scene::build_from(objects, &self.status_key)),
            key: self.key,
        }
    }
}

/// A scene built by a [`SceneJob`], for `Msg::Scene`.
#[derive(Debug, Clone)]
pub struct BuiltScene {
    key: Key,
    scene: Arc<Scene>,
}

impl PartialEq for BuiltScene {
    fn eq(&self, other: &BuiltScene) -> bool {
        self.key == other.key && Arc::ptr_eq(&self.scene, &other.scene)
    }
}

/// The open document's scene, and the build under way.
#[derive(Debug)]
pub(crate) struct SceneCache {
    /// The `meta` key read as a component's status.
    status_key: String,
    current: Option<BuiltScene>,
    building: Option<Key>,
}

impl Default for SceneCache {
    fn default() -> SceneCache {
        SceneCache::new(DEFAULT_STATUS_KEY)
    }
}

impl SceneCache {
    /// An empty cache whose scenes read a component's status from `meta.<status_key>`.
    pub fn new(status_key: &str) -> SceneCache {
        SceneCache {
            status_key: status_key.to_owned(),
            current: None,
            building: None,
        }
    }

    /// The job to start when the open document's objects are not the ones the scene (or the
    /// build under way) is of; forgets the scene of a document no longer open.
    pub fn wanted(&mut self, doc: Option<&OpenDoc>) -> Option<SceneJob> {
        let Some(doc) = doc else {
            self.current = None;
            self.building = None;
            return None;
        };
        if self.current.as_ref().is_some_and(|c| c.key.doc != doc.id()) {
            self.current = None;
        }
        let model = doc.model()?;
        let key = Key {
            doc: doc.id().to_owned(),
            version: model.version(),
        };
        let built = self.current.as_ref().is_some_and(|c| c.key == key);
        // One build at a time: changes that come during one are built together after it.
        if built || self.building.as_ref().is_some_and(|b| b.doc == key.doc) {
            return None;
        }
        self.building = Some(key.clone());
        Some(SceneJob {
            key,
            model: model.texts(),
            status_key: self.status_key.clone(),
        })
    }

    /// Takes a built scene if it is of the open document and newer than the one shown (the
    /// objects may have changed again meanwhile: the next build is then asked for by
    /// [`SceneCache::wanted`]). Says whether it was taken. The scene let go is freed off the
    /// input loop (a large one takes a while).
    pub fn settle(&mut self, built: BuiltScene, doc: Option<&OpenDoc>) -> bool {
        let Some(doc) = doc.filter(|d| d.id() == built.key.doc) else {
            drop_elsewhere(built);
            return false;
        };
        if self.building.as_ref() == Some(&built.key) {
            self.building = None;
        }
        // Versions only grow: a later build is of later objects. One of the objects shown now
        // is taken whatever came before, so that `wanted` never asks for it again.
        let newer = self
            .current
            .as_ref()
            .is_none_or(|c| c.key.doc != built.key.doc || c.key.version < built.key.version);
        let current = doc.model().map(ObjectModel::version);
        if current.is_some() && (newer || current == Some(built.key.version)) {
            if let Some(old) = self.current.replace(built) {
                drop_elsewhere(old);
            }
            true
        } else {
            drop_elsewhere(built);
            false
        }
    }

    /// The open document's scene (perhaps of a slightly older version while a new one builds).
    pub fn scene(&self) -> Option<&Scene> {
        self.current.as_ref().map(|c| c.scene.as_ref())
    }

    /// The open document's scene to share with another thread, with its document and the
    /// version of the objects it was built from.
    pub fn shared(&self) -> Option<(&Arc<Scene>, (String, u64))> {
        self.current
            .as_ref()
            .map(|c| (&c.scene, (c.key.doc.clone(), c.key.version)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::load::Load;
    use diagtui_model::{Content, DiagramObject, DocSummary};
    use serde_json::json;

    fn open(id: &str, objects: usize) -> OpenDoc {
        let mut doc = OpenDoc::new(DocSummary {
            id: id.into(),
            title: id.into(),
        });
        let content: Content = (0..objects)
            .map(|i| {
                let data = json!({"componentId": "generic.server", "position": {"x": i, "y": 0}});
                let object = DiagramObject {
                    kind: "component".into(),
                    data: serde_json::from_value(data).unwrap(),
                };
                (format!("c{i}"), object)
            })
            .collect();
        doc.content = Load::Loaded(ObjectModel::new(content));
        doc
    }

    #[test]
    fn a_scene_is_built_once_per_version_and_a_late_one_never_lands_on_another_document() {
        let mut cache = SceneCache::default();
        let mut doc = open("a", 2);
        let job = cache.wanted(Some(&doc)).expect("a first build");
        assert!(cache.wanted(Some(&doc)).is_none(), "one build at a time");
        assert!(cache.scene().is_none());
        let old = job.run();
        assert!(cache.settle(old.clone(), Some(&doc)));
        assert_eq!(cache.scene().map(|s| s.primitives().len()), Some(2));
        assert!(cache.wanted(Some(&doc)).is_none(), "already built");

        // A change of the objects asks for a new build; the old scene stays meanwhile.
        doc.content.value_mut().unwrap().replace_data(
            "c0",
            serde_json::from_value(json!({"position": {"x": 9, "y": 9}})).unwrap(),
        );
        let job = cache.wanted(Some(&doc)).expect("a rebuild");
        assert!(!cache.settle(old.clone(), Some(&doc)), "stale");
        assert!(cache.scene().is_some());
        assert!(cache.settle(job.run(), Some(&doc)));
        assert!(cache.wanted(Some(&doc)).is_none(), "built");

        // Another document: the scene of the first one is dropped and never taken back.
        let other = open("b", 1);
        let job = cache
            .wanted(Some(&other))
            .expect("the other document's build");
        assert!(cache.scene().is_none());
        assert!(!cache.settle(old, Some(&other)));
        assert!(cache.settle(job.run(), Some(&other)));
        assert_eq!(cache.scene().map(|s| s.primitives().len()), Some(1));
        assert!(cache.wanted(None).is_none());
        assert!(cache.scene().is_none(), "no document, no scene");
    }

    #[test]
    fn changes_during_a_build_are_built_together_after_it() {
        let mut cache = SceneCache::default();
        let mut doc = open("a", 2);
        let move_c0 = |doc: &mut OpenDoc, x: i32| {
            doc.content.value_mut().unwrap().replace_data(
                "c0",
                serde_json::from_value(json!({"position": {"x": x, "y": 0}})).unwrap(),
            );
        };
        let x_of_c0 = |cache: &SceneCache| {
            let bounds = cache.scene().unwrap().get("c0").unwrap().bounds;
            (bounds.min.x + bounds.max.x) / 2.0
        };
        let first = cache.wanted(Some(&doc)).expect("a first build");
        move_c0(&mut doc, 5);
        assert!(cache.wanted(Some(&doc)).is_none(), "one build at a time");
        move_c0(&mut doc, 7);
        assert!(cache.settle(first.run(), Some(&doc)), "newer than none");
        assert_eq!(x_of_c0(&cache), 0.0, "built from the objects as they were");
        let next = cache
            .wanted(Some(&doc))
            .expect("the changes since, together");
        assert!(cache.settle(next.run(), Some(&doc)));
        assert_eq!(x_of_c0(&cache), 7.0);
        assert!(cache.wanted(Some(&doc)).is_none());
    }

    #[test]
    fn an_emptied_document_gets_one_scene_of_nothing() {
        let mut cache = SceneCache::default();
        let mut doc = open("a", 2);
        let job = cache.wanted(Some(&doc)).expect("a first build");
        assert!(cache.settle(job.run(), Some(&doc)));
        doc.empty();
        let job = cache
            .wanted(Some(&doc))
            .expect("the empty document's build");
        assert!(cache.settle(job.run(), Some(&doc)));
        assert_eq!(cache.scene().map(|s| s.primitives().len()), Some(0));
        assert!(cache.wanted(Some(&doc)).is_none(), "built once");
    }
}
