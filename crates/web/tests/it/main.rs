//! duel-web's tests: the API through the router, and the page in a real headless Chromium.

mod api;
mod browser;
mod common;
mod corpus;
mod hardening;
mod wire;
