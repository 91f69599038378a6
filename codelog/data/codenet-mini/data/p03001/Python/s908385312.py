# ABC130 C - Rectangle Cutting
def run():

  f = list(map(int, input().split()))
  length, bb, stack, z = f[0], f[1], f[2], f[3]
  h = length * bb / 2
  if stack + stack == length and z + z == bb:

    result = 1
  else:
    result = 0

  print("{:.6f} {:d}".format(h, result))


if __name__ == "__main__":
  run()