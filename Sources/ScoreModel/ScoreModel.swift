// ScoreModel: music theory core.
