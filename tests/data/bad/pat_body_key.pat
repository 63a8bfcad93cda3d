pattern p
  kind thrust
  body mass=1 weight=2
  fire none time=1
end
