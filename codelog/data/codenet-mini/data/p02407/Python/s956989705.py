def main():

    n = int(input())
    line = input()
    a = [int(v) for v in line.split(" ")]
    b = [a[n-1-i] for i in range(n)]

    print(" ".join(map(str, b)))



main()