//! Rayon batch drivers over owned inputs.
