def gcd(x, val):
  return x if val == 0 else gcd(val, x % val)


def main():
  e=input()
  vals, b=map(int, e.split(" "))
  print(gcd(vals, b))


main()
