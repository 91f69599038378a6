import sys

def main():
  data = sys.stdin.read().split()
  n = int(data[0])
  a = [int(x) for x in data[1:]]
  print(",".join(map(str, a[::-1])))


main()
