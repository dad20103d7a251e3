//! The open document's scene (`crate::scene`): what the map draws and where the tree finds what
//! connects to what. App owns a [`SceneCache`]; after every update it asks the cache whether the
//! open document's objects changed since the scene was built ([`SceneCache::wanted`]), and if so
//! hands a [`SceneJob`] to the runner, which builds the scene on a blocking thread (never on the
//! input loop) and sends it back as `Msg::Scene`. Until it arrives the last scene of the same
//! document stays in use.

use std::sync::Arc;

use super::document::{ObjectModel, OpenDoc};
use crate::scene::{DEFAULT_STATUS_KEY, Input, Scene};

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
    /// A copy of the objects as they were when the job was made (compact: their data as JSON
    /// text).
    model: ObjectModel,
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
    /// Each object's data is read from its JSON text in the copy, never parsed into values.
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
pub struct SceneCache {
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
        if built || self.building.as_ref() == Some(&key) {
            return None;
        }
        self.building = Some(key.clone());
        Some(SceneJob {
            key,
            model: model.clone(),
            status_key: self.status_key.clone(),
        })
    }

    /// Takes a built scene if it is of the open document: the one awaited, or any while the
    /// document has none yet. Says whether it was taken.
    pub fn settle(&mut self, built: BuiltScene, doc: Option<&OpenDoc>) -> bool {
        let Some(doc) = doc.filter(|d| d.id() == built.key.doc) else {
            return false;
        };
        if self.building.as_ref() == Some(&built.key) {
            self.building = None;
        }
        let current_version = doc.model().map(ObjectModel::version);
        let awaited = Some(built.key.version) == current_version;
        if awaited || self.current.is_none() {
            self.current = Some(built);
            true
        } else {
            false
        }
    }

    /// The open document's scene (perhaps of a slightly older version while a new one builds).
    pub fn scene(&self) -> Option<&Scene> {
        self.current.as_ref().map(|c| c.scene.as_ref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Content, DiagramObject, DocSummary};
    use crate::tui::load::Load;
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
}
