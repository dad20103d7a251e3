//! What the layout and the pictures agree on about how a diagram is drawn.

/// How high the 3D picture hangs a title that lies on a band of its own (create-diagram's
/// group titles) over the floor, in grid units: above the blocks (one unit) and the one-line
/// titles over them, so that nothing on the floor in front of it reaches it (higher where a
/// name of several lines in front of it would). In the isometric view it then covers the floor
/// as far up and left of its band as it hangs high (as many cells across as down), where
/// create-diagram puts no link's label.
pub const SIGN_HEIGHT: f64 = 2.5;
