import Foundation
import LoopbackTools
import Testing

/// Browser tests in Firefox ESR (Debian's `firefox-esr`), driven over WebDriver BiDi, in one
/// Firefox for the whole suite (`.sharedFirefox`), each test in a fresh tab and container.
@Suite(.serialized, .sharedFirefox) struct BrowserFirefoxTests {}
