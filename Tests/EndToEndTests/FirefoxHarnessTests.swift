import Foundation
import Testing

extension BrowserFirefoxTests {
    /// Proves the Firefox harness (WebDriver BiDi) before any product code is involved: the
    /// Chromium harness's own tests (HarnessTests) given `.firefox`, and what `BrowserPage` promises
    /// (values, gestures, keys, init scripts, loads) in both engines alike.
    @Suite("Harness: headless Firefox over WebDriver BiDi") struct Harness {
        /// A fresh page of `engine` showing `html` in a 400 × 300 viewport.
        func open(_ engine: Engine, _ html: String) throws -> any BrowserPage {
            let browser = try engine.openPage()
            try browser.setViewport(width: 400, height: 300, deviceScaleFactor: 1)
            try browser.navigate(dataPage(html))
            return browser
        }

        @Test func evaluatesJavaScriptInAPage() throws {
            try ChromiumHarnessTests.evaluatesJavaScriptInAPage(.firefox)
        }

        @Test func waitForEndsWhenAConditionBecomesTrue() throws {
            try ChromiumHarnessTests.waitForEndsWhenAConditionBecomesTrue(.firefox)
        }

        @Test func screenshotIsAPNGOfTheViewport() throws {
            try ChromiumHarnessTests.screenshotIsAPNGOfTheViewport(.firefox)
        }

        @Test func consoleMessagesAndExceptionsAreCollected() throws {
            try ChromiumHarnessTests.consoleMessagesAndExceptionsAreCollected(.firefox)
        }

        @Test("values come back as CDP's returnByValue gives them", arguments: Engine.allCases)
        func valuesAsReturnByValue(_ engine: Engine) throws {
            let browser = try engine.openPage()
            defer { browser.close() }
            let value = try #require(
                browser.evaluate(
                    "({ n: 2.5, s: 'a', b: true, z: null, u: undefined, list: [1, undefined, [2]], nan: NaN })")
                    as? [String: Any])
            #expect(Set(value.keys) == ["n", "s", "b", "z", "list", "nan"], "undefined properties are left out")
            #expect(value["n"] as? Double == 2.5 && value["s"] as? String == "a" && value["b"] as? Bool == true)
            #expect(value["z"] is NSNull)
            let list = try #require(value["list"] as? [Any])
            #expect(list.count == 3 && list[0] as? Int == 1 && list[1] is NSNull && list[2] as? [Int] == [2])
            #expect(value["nan"] is NSNull, "NaN inside a value is null, as in JSON")
            #expect((try browser.evaluate("NaN") as? Double)?.isNaN == true, "on its own, it is NaN")
            #expect(
                try browser.evaluate("-0") as? Double == 0 && (try browser.evaluate("-0") as? Double)?.sign == .minus)
            #expect(try browser.evaluate("document.body") as? [String: Any] != nil, "a node, as an empty object")
        }

        @Test(
            "a gesture reaches the page as pointer events at its points, as long as it says", arguments: Engine.allCases
        )
        func gestureReachesThePage(_ engine: Engine) throws {
            let browser = try open(
                engine,
                """
                <body style="margin:0;height:100vh;touch-action:none"><script>
                window.seen = [];
                for (const type of ['pointerdown', 'pointermove', 'pointerup', 'click'])
                  addEventListener(type, e => seen.push({ type, kind: e.pointerType, x: e.clientX, y: e.clientY,
                    buttons: e.buttons, t: e.timeStamp }));
                </script></body>
                """)
            defer { browser.close() }
            // A stroke: down, 10 moves 16 ms apart 100 px right, up 100 ms later.
            try browser.perform(.stroke(from: 50, 80, by: 100, 0, steps: 10, interval: 0.016, hold: 0.1))
            try browser.waitFor("seen.some(e => e.type === 'click')", timeout: 5)
            // Firefox moves the mouse to where it is pressed first (WebDriver presses where the
            // pointer is): the page sees it arrive, with no button down, before the press.
            let all = try #require(browser.evaluate("seen") as? [[String: Any]])
            let arrival = all.prefix { $0["type"] as? String == "pointermove" }
            #expect(arrival.count == (engine == .chromium ? 0 : 1) && arrival.allSatisfy { $0["buttons"] as? Int == 0 })
            let seen = Array(all.dropFirst(arrival.count))
            let kinds = seen.map { $0["type"] as? String ?? "" }
            #expect(kinds.first == "pointerdown" && kinds.suffix(2) == ["pointerup", "click"], "\(kinds)")
            let moves = seen.filter { $0["type"] as? String == "pointermove" }
            #expect(moves.count >= 4, "moves: \(moves.count)")
            #expect(moves.allSatisfy { $0["buttons"] as? Int == 1 && $0["kind"] as? String == "mouse" })
            let xs = moves.compactMap { ($0["x"] as? NSNumber)?.doubleValue }
            #expect(xs == xs.sorted() && xs.last == 150 && seen.first?["x"] as? Double == 50, "\(xs)")
            // Down to up: 0.26 s as scripted (Chromium stamps it so; Firefox plays it, a little longer).
            let times = seen.compactMap { ($0["t"] as? NSNumber)?.doubleValue }
            let span = try #require(times.last) - (try #require(times.first))
            #expect(engine == .chromium ? abs(span - 260) < 1 : span >= 258, "down to click: \(span) ms")

            // A finger: touch pointers at the same points.
            _ = try browser.evaluate("seen.length = 0")
            try browser.perform(.tap(.touch, x: 120, y: 60))
            try browser.waitFor("seen.some(e => e.type === 'pointerup')", timeout: 5)
            let touch = try #require(
                browser.evaluate("seen.filter(e => e.type.startsWith('pointer'))") as? [[String: Any]])
            #expect(touch.map { $0["kind"] as? String } == ["touch", "touch"])
            #expect(touch.allSatisfy { $0["x"] as? Double == 120 && $0["y"] as? Double == 60 })
        }

        @Test("keys arrive as a keyboard types them", arguments: Engine.allCases)
        func keysArrive(_ engine: Engine) throws {
            let browser = try engine.openPage()
            defer { browser.close() }
            try browser.navigate(
                dataPage(
                    """
                    <input id=a><input id=b><script>
                    window.keys = []; addEventListener('keydown', e => keys.push(`${e.key}|${e.code}|${e.keyCode}`));
                    document.getElementById('a').focus();
                    </script>
                    """))
            try browser.press("Tab")
            #expect(try browser.evaluate("document.activeElement.id") as? String == "b")
            try browser.type("Ada")
            #expect(try browser.evaluate("document.activeElement.value") as? String == "Ada")
            for key in ["PageUp", "Home", "ArrowLeft", "Enter", " "] { try browser.press(key) }
            let keys = try #require(browser.evaluate("keys") as? [String])
            #expect(keys.first == "Tab|Tab|9")
            #expect(
                keys.suffix(5) == [
                    "PageUp|PageUp|33", "Home|Home|36", "ArrowLeft|ArrowLeft|37", "Enter|Enter|13", " |Space|32",
                ])
            #expect(throws: HarnessError.self) { try browser.press("NoSuchKey") }
        }

        @Test("an init script runs before the page's own, in every document it loads", arguments: Engine.allCases)
        func initScriptRunsFirst(_ engine: Engine) throws {
            let browser = try engine.openPage()
            defer { browser.close() }
            try browser.addInitScript(
                "window.early = (window.early ?? 0) + 1; window.before = document.scripts.length;")
            try browser.navigate(dataPage("<script>window.seenEarly = window.early;</script>"))
            #expect(try browser.evaluate("[seenEarly, before]") as? [Int] == [1, 0])
            try browser.navigate(dataPage("<p>again</p>"))
            #expect(try browser.evaluate("early") as? Int == 1)
        }

        @Test("expectingLoad waits for the load its action causes", arguments: Engine.allCases)
        func expectingLoad(_ engine: Engine) throws {
            // A form submitted with a click, as the embed example's is (a page of a site: browsers
            // refuse a data: URL navigating itself).
            let form = """
                <form action="/" style="margin:0"><input type=hidden name=q value=1>
                <button style="position:fixed;left:0;top:0;width:100px;height:50px">go</button></form>
                """
            let site = try PlainSite(pages: ["/": form])
            defer { site.stop() }
            let browser = try engine.openPage()
            defer { browser.close() }
            try browser.setViewport(width: 400, height: 300, deviceScaleFactor: 1)
            try browser.navigate(site.origin + "/")
            _ = try browser.evaluate("window.marker = 1")
            try browser.expectingLoad { try browser.perform(.tap(x: 50, y: 25)) }
            #expect(try browser.evaluate("window.marker") == nil, "a new document")
            #expect(try browser.evaluate("location.search") as? String == "?q=1")
        }

        @Test("each page is a tab in a container of its own: storage apart, closed with the page")
        func pagesAreApart() throws {
            let site = try PlainSite(pages: ["/": "<p>storage</p>"])
            defer { site.stop() }
            let first = try Engine.firefox.openPage()
            try first.navigate(site.origin + "/")
            _ = try first.evaluate("localStorage.setItem('k', 'first'); true")
            let second = try Engine.firefox.openPage()
            defer { second.close() }
            try second.navigate(site.origin + "/")
            #expect(try second.evaluate("localStorage.getItem('k')") == nil)
            let firefox = try #require(first as? FirefoxPage)
            let tabs = { () throws -> [String] in
                let tree = try firefox.browser.connection.call("browsingContext.getTree")
                return (tree["contexts"] as? [[String: Any]] ?? []).compactMap { $0["context"] as? String }
            }
            #expect(try tabs().contains(firefox.context))
            first.close()
            #expect(try !tabs().contains(firefox.context))
        }

        @Test func closeEndsTheBrowserAndRemovesItsProfile() throws {
            let browser = try Firefox()
            #expect(FileManager.default.fileExists(atPath: browser.profile.appendingPathComponent("user.js").path))
            browser.close()
            #expect(browser.hasExited)
            #expect(!FileManager.default.fileExists(atPath: browser.profile.path))
        }

        @Test func firefoxComesFromTheFIREFOXVariableWithADefault() {
            #expect(Firefox.executable(environment: [:]) == "/usr/lib/firefox-esr/firefox-esr")
            #expect(Firefox.executable(environment: ["FIREFOX": ""]) == "/usr/lib/firefox-esr/firefox-esr")
            #expect(Firefox.executable(environment: ["FIREFOX": "/opt/ff/firefox"]) == "/opt/ff/firefox")
            #expect(Firefox.executable(environment: ["FIREFOX": "sh", "PATH": "/nonexistent:/bin"]) == "/bin/sh")
        }

        /// Without Firefox a Firefox test fails (never skips), and the error says how to get it.
        @Test func aMissingFirefoxFailsSayingHowToInstallIt() {
            let missing = "/nonexistent-\(UUID().uuidString)/firefox"
            let error = #expect(throws: HarnessError.self) { try Firefox(executable: missing) }
            let text = error.map { "\($0)" } ?? ""
            #expect(text.contains("Firefox not found at \(missing)"), "\(text)")
            #expect(text.contains("apt-get install -y --no-install-recommends firefox-esr"), "\(text)")
            #expect(text.contains("set FIREFOX"), "\(text)")
        }

        @Test("outside a suite with .sharedFirefox, a Firefox page is refused, saying why")
        func noSharedFirefoxOutsideTheTrait() {
            let error = SharedFirefox.$current.withValue(nil) {
                #expect(throws: HarnessError.self) { try Engine.firefox.openPage() }
            }
            #expect(error.map { "\($0)".contains(".sharedFirefox") } == true)
        }
    }
}
