import Dispatch
import ScrollCore

func seconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// A scene whose ruler is being dragged: every frame differs.
func draggingScene() -> (Scene, (Int) -> Void) {
    let scene = DemoScene.make()
    let key = PointerKey(client: "bench", pointer: 1)
    scene.apply(.pointer(PointerInput(phase: .down, key: key, position: Point(x: 300, y: 214), clientTime: 0)), at: 0)
    return (
        scene,
        { i in
            let t = Double(i) / 60
            let x = 300 - Double(i % 400) * 0.7
            scene.apply(
                .pointer(PointerInput(phase: .move, key: key, position: Point(x: x, y: 214), clientTime: t)), at: t)
        }
    )
}
