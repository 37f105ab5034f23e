/// A pointer move as the page sends it while a mouse drags (Public/js/input.js: the base
/// fields, the newest sample, and its coalesced samples — two at 60 Hz on a 120 Hz pointer).
public let typicalPointerMove = """
    {"type":"pointer","phase":"move","id":1,"pointerType":"mouse","buttons":1,"x":212.5,\
    "y":214.33333206176758,"t":12345.600000001,"coalesced":[[210.25,214.33333206176758,12337.3],\
    [212.5,214.33333206176758,12345.600000001]]}
    """
