# Path patterns of castle.map: all paths, so map2tmx turns them into routes.
pattern square
  kind path
  points 0,0 4,0 4,3 0,3 0,0
end

pattern zigzag
  kind path
  points 2,6 5,6 5,7 8,7
  at_end restart
end
