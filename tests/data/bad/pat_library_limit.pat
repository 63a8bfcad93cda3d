pattern p0
  kind path
  points 0,0 65535,0
end
pattern p1
  kind path
  points 0,0 65535,0
end
pattern p2
  kind path
  points 0,0 65535,0
end
pattern p3
  kind path
  points 0,0 65535,0
end
pattern p4
  kind path
  points 0,0 65535,0
end
pattern p5
  kind path
  points 0,0 65535,0
end
pattern p6
  kind path
  points 0,0 65535,0
end
pattern p7
  kind path
  points 0,0 65535,0
end
pattern p8
  kind path
  points 0,0 65535,0
end
pattern p9
  kind path
  points 0,0 65535,0
end
pattern p10
  kind path
  points 0,0 65535,0
end
pattern p11
  kind path
  points 0,0 65535,0
end
pattern p12
  kind path
  points 0,0 65535,0
end
pattern p13
  kind path
  points 0,0 65535,0
end
pattern p14
  kind path
  points 0,0 65535,0
end
pattern p15
  kind path
  points 0,0 65535,0
end
pattern p16
  kind path
  points 0,0 65535,0
end
pattern p17
  kind path
  points 0,0 65535,0
end
pattern p18
  kind path
  points 0,0 65535,0
end
pattern p19
  kind path
  points 0,0 65535,0
end
pattern p20
  kind path
  points 0,0 65535,0
end
pattern p21
  kind path
  points 0,0 65535,0
end
pattern p22
  kind path
  points 0,0 65535,0
end
pattern p23
  kind path
  points 0,0 65535,0
end
pattern p24
  kind path
  points 0,0 65535,0
end
pattern p25
  kind path
  points 0,0 65535,0
end
pattern p26
  kind path
  points 0,0 65535,0
end
pattern p27
  kind path
  points 0,0 65535,0
end
pattern p28
  kind path
  points 0,0 65535,0
end
pattern p29
  kind path
  points 0,0 65535,0
end
pattern p30
  kind path
  points 0,0 65535,0
end
pattern p31
  kind path
  points 0,0 65535,0
end
pattern p32
  kind path
  points 0,0 65535,0
end
