import LoopbackTools

extension Chromium {
    /// Evaluates `js` (an expression, usually an async function that imports the page's modules
    /// from `/js/…`) in a fresh Chromium on a fresh server's page, and returns its value: for tests
    /// of the page's modules on their own.
    static func evaluateOnPage(_ js: String) throws -> Any? {
        let server = try ServerProcess()
        let b = try Chromium()
        defer { b.close() }
        try b.navigate(server.httpURL)
        return try b.evaluate(js)
    }
}
