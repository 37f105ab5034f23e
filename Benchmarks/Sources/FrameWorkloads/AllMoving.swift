import Foundation
import ScrollCore

extension FrameWorkload {
    /// Frames in one cycle of `allMoving` (2 s).
    public static let allMovingPeriod = 120

    /// Every widget of the demo moving at once, driven by the pointer inputs and actions a page
    /// sends. Each 2 s cycle flings the ruler and the picker (6 moves of 9 pt: not a whole
    /// 10 pt picker tick, or the picker would look the same every frame), alternately left and
    /// right so both stay in range, and the next cycle's down catches them; swings the carousel
    /// while drifting one item along for 70 frames and lets it glide and snap (it must be at
    /// rest when the next down comes: a snapping carousel declines a down); and presses the
    /// roller's "random" button every second. The readout, the count and the item name follow.
    public static func allMoving() -> FrameWorkload {
        let scene = DemoScene.make()
        let ruler = 214.0, picker = 335.0, carousel = 505.0, carouselHeld = 70
        return FrameWorkload(name: "all-moving", scene: scene) { scene, k in
            let c = (k - 1) % allMovingPeriod, sign = ((k - 1) / allMovingPeriod) % 2 == 0 ? -1.0 : 1.0
            if c < 8 {
                let x = 195 + sign * (Double(c) * 9 - 31.5)
                let phase: PointerPhase = c == 0 ? .down : c == 7 ? .up : .move
                pointer(scene, phase, 1, x, ruler, frame: k)
                pointer(scene, phase, 2, x, picker, frame: k)
            }
            if c <= carouselHeld {
                let s = Double(c) / Double(carouselHeld)
                let x = 195 + 60 * sin(s * 2 * .pi) + sign * 78 * s
                pointer(scene, c == 0 ? .down : c == carouselHeld ? .up : .move, 3, x, carousel, frame: k)
            }
            if c % 60 == 0 {
                scene.apply(.action(ActionInput(widget: "rollerRandom", name: "press")), at: Double(k) / fps)
            }
        }
    }
}
