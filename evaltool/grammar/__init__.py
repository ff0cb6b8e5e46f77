"""The grammar of offers: how prices, bases, numbers, quantities and places are written.

Shared by the stages that read it: `read/` finds tables and cells with it, `normalize/`
turns values into canonical fields with it. It imports no stage, so the data path
(read -> normalize -> estimate -> ...) never runs backwards through it.
"""
