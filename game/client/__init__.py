"""The pygame-ce client: the loop, scenes, sprites, layout, input, animation and sound."""
