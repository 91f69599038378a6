def gcd(x, y):
    return x if y == 0 else gcd(y, x % y)
def main():
    line=input()
    a, b=map(int, line.split(" "))
    print(gcd(a, b))
main()  # init
