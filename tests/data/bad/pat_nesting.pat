pattern p
  kind control
  repeat 2
    repeat 2
      repeat 2
        repeat 2
          repeat 2
            repeat 2
              repeat 2
                repeat 2
                  repeat 2
forward 1
end
end
end
end
end
end
end
end
end
end
