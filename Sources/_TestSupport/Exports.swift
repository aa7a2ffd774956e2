import PitchDSP
