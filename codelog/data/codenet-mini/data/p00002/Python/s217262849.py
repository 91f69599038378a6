import math

def main():
  while True:
    try:
      line = input()
    except EOFError:
      break
    a, b = [int(x) for x in line.split()]
    print(math.floor(math.log10(a+b))+1)


main()
