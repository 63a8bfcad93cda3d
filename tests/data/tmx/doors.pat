# Rounds through doors (tests/check_doors.c, doors.map and its doors.tmx).
pattern through
  kind path
  points 1,1 10,1
  at_end reverse
end
pattern below
  kind path
  points 1,3 10,3
  at_end reverse
end
