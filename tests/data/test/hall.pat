pattern walk
  kind path
  points 1,1 8,1
  at_end stop
end
pattern pace
  kind path
  points 1,3 6,3
  at_end reverse
end
pattern low
  kind path
  points 1,1 1,2 8,3
  at_end stop
end
